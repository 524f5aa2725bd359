#include "conclave/bench/ServeLoad.h"

#include "conclave/http/EndpointLimits.h"

#include <condition_variable>
#include <mutex>

namespace conclave {

ServeLoad::Result ServeLoad::run(const std::string& url, const std::string& body,
                                 const std::vector<std::string>& headers, int count, int concurrency,
                                 std::chrono::milliseconds timeout)
{
    using Clock = std::chrono::steady_clock;
    Result result;
    std::mutex mutex;
    std::condition_variable done;
    int ended = 0;
    auto limits = std::make_shared<EndpointLimits>(concurrency, std::nullopt);
    HttpMultiLoop loop;
    const auto start = Clock::now();
    std::vector<HttpMultiLoop::TransferId> ids;
    for (int i = 0; i < count; ++i) {
        HttpRequest request;
        request.url = url;
        request.post = true;
        request.body = body;
        request.headers = headers;
        request.limits = limits;
        auto tail = std::make_shared<std::string>(); // the stream's last bytes
        HttpHandlers handlers;
        handlers.onData = [tail](const HttpResponse&, std::string_view bytes) {
            tail->append(bytes);
            if (tail->size() > 64)
                tail->erase(0, tail->size() - 64);
            return true;
        };
        handlers.onDone = [&, tail](HttpResponse response) {
            Reply reply;
            reply.status = response.status;
            if (const auto it = response.headers.find("x-conclave-run-id"); it != response.headers.end())
                reply.runId = it->second;
            const auto sent = response.requestSent.value_or(start);
            reply.clientMs = std::chrono::duration<double, std::milli>(response.ended - sent).count();
            reply.error = response.transportError;
            reply.sawDone = tail->find("data: [DONE]") != std::string::npos;
            std::lock_guard lock(mutex);
            result.replies.push_back(std::move(reply));
            ++ended;
            done.notify_all();
        };
        ids.push_back(loop.submit(std::move(request), std::move(handlers)));
    }
    std::unique_lock lock(mutex);
    if (!done.wait_for(lock, timeout, [&] { return ended == count; })) {
        lock.unlock();
        for (const auto id : ids)
            loop.cancel(id);
        lock.lock();
        done.wait(lock, [&] { return ended == count; });
    }
    result.wallMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return result;
}

} // namespace conclave
