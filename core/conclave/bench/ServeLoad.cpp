#include "conclave/bench/ServeLoad.h"

#include "conclave/http/EndpointLimits.h"
#include "conclave/http/EndpointLoad.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace conclave {

namespace {

using Clock = std::chrono::steady_clock;

// Submits requests to one loop and waits for all of them to end.
class Batch {
public:
    Batch(HttpMultiLoop& loop, Clock::time_point start) : m_loop(loop), m_start(start) {}

    void submit(HttpRequest request, std::shared_ptr<std::string> tail)
    {
        HttpHandlers handlers;
        handlers.onData = [tail](const HttpResponse&, std::string_view bytes) {
            tail->append(bytes);
            if (tail->size() > 64)
                tail->erase(0, tail->size() - 64);
            return true;
        };
        handlers.onDone = [this, tail](HttpResponse response) {
            ServeLoad::Reply reply;
            reply.status = response.status;
            if (const auto it = response.headers.find("x-conclave-run-id"); it != response.headers.end())
                reply.runId = it->second;
            const auto ms = [this](Clock::time_point t) {
                return std::chrono::duration<double, std::milli>(t - m_start).count();
            };
            reply.sentMs = ms(response.requestSent.value_or(m_start));
            reply.endedMs = ms(response.ended);
            reply.clientMs = reply.endedMs - reply.sentMs;
            reply.error = response.transportError;
            reply.sawDone = tail->find("data: [DONE]") != std::string::npos;
            std::lock_guard lock(m_mutex);
            m_replies.push_back(std::move(reply));
            m_done.notify_all();
        };
        m_ids.push_back(m_loop.submit(std::move(request), std::move(handlers)));
    }

    // Every reply, once all have ended; past `deadline` the rest are cancelled.
    std::vector<ServeLoad::Reply> wait(Clock::time_point deadline)
    {
        std::unique_lock lock(m_mutex);
        const auto all = [this] { return m_replies.size() == m_ids.size(); };
        if (!m_done.wait_until(lock, deadline, all)) {
            lock.unlock();
            for (const auto id : m_ids)
                m_loop.cancel(id);
            lock.lock();
            m_done.wait(lock, all);
        }
        return std::move(m_replies);
    }

private:
    HttpMultiLoop& m_loop;
    Clock::time_point m_start;
    std::mutex m_mutex;
    std::condition_variable m_done;
    std::vector<HttpMultiLoop::TransferId> m_ids;
    std::vector<ServeLoad::Reply> m_replies;
};

} // namespace

ServeLoad::Result ServeLoad::run(const Load& load)
{
    Result result;
    auto limits = std::make_shared<EndpointLimits>(load.concurrency, std::nullopt);
    HttpMultiLoop loop;
    if (!load.warmUpUrl.empty()) {
        Batch warm(loop, Clock::now());
        for (int i = 0; i < load.concurrency; ++i) {
            HttpRequest request;
            request.url = load.warmUpUrl;
            request.headers = load.headers;
            request.limits = limits;
            warm.submit(std::move(request), std::make_shared<std::string>());
        }
        warm.wait(Clock::now() + load.timeout);
    }
    const auto start = Clock::now();
    Batch batch(loop, start);
    for (int i = 0; i < load.count; ++i) {
        if (load.spread.count() > 0)
            std::this_thread::sleep_until(start + load.spread * i / load.count);
        HttpRequest request;
        request.url = load.url;
        request.post = true;
        request.body = load.body;
        request.headers = load.headers;
        request.limits = limits;
        batch.submit(std::move(request), std::make_shared<std::string>());
    }
    result.replies = batch.wait(start + load.spread + load.timeout);
    result.wallMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    result.peakInFlight = peakOverlap(result.replies);
    return result;
}

int ServeLoad::peakOverlap(const std::vector<Reply>& replies)
{
    // The house's sweep (EndpointLoad's), on the replies' times from the load's start.
    const auto at = [](double ms) {
        return EndpointLoad::Clock::time_point() +
               std::chrono::duration_cast<EndpointLoad::Clock::duration>(std::chrono::duration<double, std::milli>(ms));
    };
    std::vector<EndpointLoad::Interval> intervals;
    intervals.reserve(replies.size());
    for (const auto& reply : replies)
        intervals.push_back(EndpointLoad::Interval{at(reply.sentMs), at(reply.endedMs)});
    return EndpointLoad::peakOverlap(std::move(intervals));
}

} // namespace conclave
