#include "conclave/http/EndpointLoad.h"

#include "conclave/http/OpenAiCall.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>

namespace conclave {

namespace {

struct LoadState {
    std::mutex mutex;  // guards the four below
    std::condition_variable allDone;
    int remaining = 0;
    EndpointLoadResult result;
    std::vector<EndpointLoad::Interval> intervals;
};

} // namespace

EndpointLoadResult EndpointLoad::run(HttpMultiLoop& loop, std::shared_ptr<const OpenAiSettings> settings,
                                     std::shared_ptr<EndpointLimits> limits, const std::string& model, int calls,
                                     std::chrono::milliseconds timeout)
{
    auto state = std::make_shared<LoadState>();
    state->remaining = std::max(0, calls);
    state->result.calls = state->remaining;
    std::vector<HttpMultiLoop::TransferId> ids;
    const auto started = Clock::now();
    for (int i = 0; i < calls; ++i) {
        ModelRequest request;
        request.model = model;
        request.prompt = "Reply with OK.";
        request.params.maxTokens = 1;
        auto call = std::make_shared<OpenAiCall>(settings, std::move(request), CallCallbacks{{}, [state](ModelReply reply) {
            std::lock_guard lock(state->mutex);
            if (!reply.ok) {
                ++state->result.failed;
                if (state->result.firstError.empty())
                    state->result.firstError = reply.error;
            }
            if (--state->remaining == 0)
                state->allDone.notify_all();
        }});
        auto http = call->httpRequest(limits);
        ids.push_back(loop.submit(
            std::move(http),
            HttpHandlers{[call](const HttpResponse& head, std::string_view bytes) { return call->onData(head, bytes); },
                         [call, state](HttpResponse response) {
                             if (response.requestSent) {
                                 std::lock_guard lock(state->mutex);
                                 state->intervals.push_back(Interval{*response.requestSent, response.ended});
                             }
                             call->onDone(std::move(response));
                         }}));
    }
    std::unique_lock lock(state->mutex);
    if (!state->allDone.wait_for(lock, timeout, [&] { return state->remaining == 0; })) {
        lock.unlock();
        for (const auto id : ids)
            loop.cancel(id);  // each still ends exactly once, as cancelled
        lock.lock();
        state->allDone.wait(lock, [&] { return state->remaining == 0; });
    }
    auto result = state->result;
    result.wallMs = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
    result.peakInFlight = peakOverlap(state->intervals);
    return result;
}

int EndpointLoad::peakOverlap(std::vector<Interval> intervals)
{
    // A sweep over the ends: +1 at a begin, -1 at an end, ends first at a tie.
    std::vector<std::pair<Clock::time_point, int>> events;
    events.reserve(intervals.size() * 2);
    for (const auto& i : intervals) {
        events.emplace_back(i.begin, +1);
        events.emplace_back(std::max(i.begin, i.end), -1);
    }
    std::sort(events.begin(), events.end());
    int now = 0;
    int peak = 0;
    for (const auto& [at, step] : events) {
        now += step;
        peak = std::max(peak, now);
    }
    return peak;
}

} // namespace conclave
