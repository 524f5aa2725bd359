// ChatServer's runs: a request admitted to a slot is run, answered and
// recorded; the queue moves on as runs end; drain() ends them all.
#include "conclave/serve/ChatServer.h"

#include "conclave/serve/ChatServerRequest.h"
#include "conclave/session/Engine.h"
#include "conclave/session/RecordedStart.h"
#include "conclave/store/RunStore.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace conclave {

using nlohmann::ordered_json;
using SteadyClock = std::chrono::steady_clock;

namespace {

int64_t unixSeconds()
{
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

double msSince(SteadyClock::time_point t)
{
    return std::chrono::duration<double, std::milli>(SteadyClock::now() - t).count();
}

} // namespace

void ChatServer::launch(const std::shared_ptr<Request>& request)
{
    const auto& team = *request->team;
    RunOrigin origin{RunSource::Serve, {}, request->keyName};
    origin.storeText = m_options.storeText;
    std::string error;
    std::unique_lock lock(request->mutex);
    auto recorder = m_store.record(team.team(), error, origin);
    if (!recorder) {
        lock.unlock();
        const auto e = ServeError::server(500, "the run store cannot record the run: " + error, "store_failed");
        e.sendTo(*request->exchange);
        request->end.httpStatus = 500;
        request->end.error = e.message;
        m_worker.post([this, request] { finished(request); });
        return;
    }
    CompletionStream::Setup setup;
    setup.runId = recorder->id().str();
    setup.model = team.id;
    setup.created = unixSeconds();
    setup.stream = request->body.stream;
    setup.includeUsage = request->body.includeUsage;
    setup.rule = team.stream;
    setup.outputNode = team.prepared->plan->at(team.prepared->plan->outputIndex()).node->id;
    setup.ignored = request->body.ignored;
    setup.arrived = request->arrived;
    setup.keepAliveEvery = m_options.keepAliveEvery;
    auto weak = std::weak_ptr<Request>(request);
    request->stream = std::make_shared<CompletionStream>(
        std::move(setup), request->exchange,
        [this, id = team.id](double seconds) { m_metrics.firstToken(id, seconds); },
        [this, weak](const ServedRunEnd& end) {
            // Under the run's lock, before the answer goes out: settle the
            // key's spend (so its next request sees it) and leave the rest to the worker.
            if (auto r = weak.lock()) {
                r->end = end;
                if (r->ticket) {
                    m_limits.release(*r->ticket, end.costUsd);
                    r->ticket.reset();
                }
                m_worker.post([this, r] { finished(r); });
            }
        });
    request->stream->begin();
    Engine::StartOptions options;
    options.seed = request->body.seed;
    options.observers = {request->stream.get()};
    options.clock = ClockRequest::Real;
    auto started = startRecorded(m_engine, std::move(recorder), *team.prepared, request->input, std::move(options));
    if (!started.run) {
        // The team was prepared, so this is rare (a backend that cannot be made now).
        request->end.httpStatus = request->body.stream ? 200 : 500;
        request->end.error = "the run did not start: " + started.error;
        lock.unlock();
        const auto e = ServeError::server(500, request->end.error, "run_failed");
        if (request->body.stream) {
            request->exchange->write(e.event() + "data: [DONE]\n\n");
            request->exchange->end();
        } else {
            e.sendTo(*request->exchange);
        }
        m_worker.post([this, request] { finished(request); });
        return;
    }
    request->recorder = std::move(started.recorder);
    request->run = started.run;
    const bool cancel = request->gone || request->drained;
    lock.unlock();
    m_metrics.inFlight(1);
    if (cancel)
        started.run->cancel();
}

void ChatServer::finished(const std::shared_ptr<Request>& request)
{
    std::shared_ptr<Run> run;
    {
        std::lock_guard lock(request->mutex);
        run = request->run;
    }
    if (run) {
        run->wait(); // every observer call has returned
        m_metrics.inFlight(-1);
        m_metrics.run(request->team->id, double(request->end.wallUs) / 1e6, request->end.tokensIn,
                      request->end.tokensOut, request->end.costUsd);
    }
    const std::string runId = request->recorder ? request->recorder->id().str() : std::string();
    const double ms = std::round(msSince(request->arrived) * 10) / 10;
    release(request, request->end.httpStatus, run ? std::string(toString(request->end.status)) : "not started", ms);
    std::function<void(const ServedRequest&)> stored;
    bool prune = false;
    {
        std::lock_guard lock(m_mutex);
        m_active.erase(request);
        stored = m_onRunStored;
        // Pruned in batches: at most every keepRuns runs, at least every 64.
        prune = m_options.keepRuns > 0 && ++m_sincePrune >= std::min(64, m_options.keepRuns);
        if (prune)
            m_sincePrune = 0;
    }
    if (stored && request->recorder) {
        request->recorder->waitUntilStored();
        ServedRequest served;
        served.runId = runId;
        served.team = request->team->id;
        served.keyName = request->keyName;
        served.httpStatus = request->end.httpStatus;
        served.runStatus = run ? request->end.status : RunStatus::Failed;
        served.stream = request->body.stream;
        served.ms = ms;
        served.arrivedUnixMs =
            std::chrono::duration_cast<std::chrono::milliseconds>(request->arrivedAt.time_since_epoch()).count();
        stored(served);
    }
    if (prune) {
        m_store.flush(); // the runs just ended count as ended
        m_store.pruneSource(RunSource::Serve, m_options.keepRuns);
    }
    startNext();
    m_changed.notify_all();
}

void ChatServer::release(const std::shared_ptr<Request>& request, int status, const std::string& runStatus,
                         double ms)
{
    if (request->ticket)
        m_limits.release(*request->ticket, request->end.costUsd);
    m_metrics.request(request->team->id, status);
    ordered_json line{{"method", request->method}, {"path", request->path}, {"status", status},
                      {"team", request->team->id}};
    if (!request->keyName.empty())
        line["key"] = request->keyName;
    if (request->recorder)
        line["run_id"] = request->recorder->id().str();
    line["stream"] = request->body.stream;
    line["ms"] = ms;
    line["run_status"] = runStatus;
    if (request->run) {
        line["tokens_in"] = request->end.tokensIn;
        line["tokens_out"] = request->end.tokensOut;
        // Twelve significant digits: the sum's binary noise (6.790000000000001e-05) left out.
        char cost[32];
        std::snprintf(cost, sizeof cost, "%.12g", request->end.costUsd);
        line["cost_usd"] = std::strtod(cost, nullptr);
    }
    bool gone = false;
    {
        std::lock_guard lock(request->mutex);
        gone = request->gone;
    }
    if (gone)
        line["client"] = "disconnected";
    if (!request->end.error.empty())
        line["error"] = request->end.error;
    m_log.write(std::move(line));
}

void ChatServer::startNext()
{
    for (;;) {
        std::shared_ptr<Request> next;
        {
            std::lock_guard lock(m_mutex);
            if (m_draining || m_queue.empty() || int(m_active.size()) >= m_options.maxConcurrency)
                return;
            next = std::move(m_queue.front());
            m_queue.pop_front();
            m_metrics.queued(-1);
            std::lock_guard requestLock(next->mutex);
            if (next->gone) {
                next->end.httpStatus = 499; // nginx's "client closed request"
                next->end.error = "the client went away while the request waited";
            } else {
                m_active.insert(next);
            }
        }
        if (next->end.httpStatus == 499)
            release(next, 499, "not started", std::round(msSince(next->arrived) * 10) / 10);
        else
            launch(next);
    }
}

int ChatServer::drain(std::chrono::milliseconds within)
{
    const auto deadline = SteadyClock::now() + within;
    std::deque<std::shared_ptr<Request>> queued;
    {
        std::lock_guard lock(m_mutex);
        if (!m_http)
            return 0;
        m_draining = true;
        queued.swap(m_queue);
    }
    m_http->stopAccepting();
    for (const auto& r : queued) {
        m_metrics.queued(-1);
        if (r->ticket)
            m_limits.release(*r->ticket, 0);
        HttpServerRequest http;
        http.method = r->method;
        http.target = r->path;
        refuse(r->exchange, ServeError::server(503, "the server is shutting down", "draining", 5), r->team->id, http,
               r->keyName);
    }
    std::vector<std::shared_ptr<Request>> going;
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait_until(lock, deadline, [&] { return m_active.empty(); });
        going.assign(m_active.begin(), m_active.end());
    }
    int cancelled = 0;
    for (const auto& r : going) {
        std::shared_ptr<Run> run;
        {
            std::lock_guard lock(r->mutex);
            r->drained = true;
            run = r->run;
            if (r->stream)
                r->stream->draining();
        }
        if (run && !run->finished()) {
            run->cancel();
            ++cancelled;
        }
    }
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_active.empty(); });
    }
    m_store.flush();
    std::unique_ptr<HttpServer> http;
    {
        std::lock_guard lock(m_mutex);
        http = std::move(m_http);
    }
    // Every answer has been handed to its connection: let them be written.
    http->stop(std::chrono::seconds(2));
    return cancelled;
}

} // namespace conclave
