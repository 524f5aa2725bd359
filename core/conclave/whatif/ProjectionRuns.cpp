#include "conclave/whatif/ProjectionRuns.h"

#include "conclave/session/Engine.h"

#include <deque>

namespace conclave {

std::optional<std::vector<int64_t>> ProjectionRuns::walls(Engine& engine, const std::vector<Job>& jobs,
                                                          std::string& error)
{
    std::vector<int64_t> out(jobs.size(), 0);
    std::deque<std::pair<size_t, std::shared_ptr<Run>>> running;
    const auto finishOldest = [&] {
        auto [index, run] = std::move(running.front());
        running.pop_front();
        out[index] = run->wait().wallUs;
    };
    for (size_t i = 0; i < jobs.size(); ++i) {
        if (running.size() == kInFlight)
            finishOldest();
        auto started = engine.start(*jobs[i].team, *jobs[i].input,
                                    Engine::StartOptions{jobs[i].seed, {}, ClockRequest::Virtual, {}, {}});
        if (!started.run) {
            error = started.error;
            while (!running.empty())
                finishOldest();
            return std::nullopt;
        }
        running.emplace_back(i, std::move(started.run));
    }
    while (!running.empty())
        finishOldest();
    return out;
}

} // namespace conclave
