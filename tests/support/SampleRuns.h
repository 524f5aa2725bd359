#pragma once

// A store filled with runs whose filters have exact answers, for the suites
// that page and filter the run history (core RunQueries, the history dock).
// Run i (0-based, oldest first) of n: team "alpha" for i < 15, else "beta";
// failed when i % 5 == 4; the input says "SKY" when i % 3 == 0 (else "q<i>");
// the answer is "answer-<i>", except run 7's: "50%_off".
#include "conclave/bench/BenchTeams.h"
#include "conclave/store/RunStore.h"

#include <string>
#include <vector>

namespace sample_runs {

using namespace conclave;

inline RunId storeOne(RunStore& store, int i)
{
    Team team = BenchTeams::fanOut(2, 1);
    team.name = i < 15 ? "alpha" : "beta";
    std::string error;
    auto recorder = store.record(team, error);
    if (!recorder)
        return {};
    recorder->runStarted(i % 3 == 0 ? "Why is the SKY blue? #" + std::to_string(i) : "q" + std::to_string(i), 1,
                         ClockKind::Real);
    RunResult result;
    result.status = i % 5 == 4 ? RunStatus::Failed : RunStatus::Ok;
    result.output.status = Status::Ok;
    result.output.answer = i == 7 ? "50%_off" : "answer-" + std::to_string(i);
    recorder->runFinished(result);
    if (!recorder->waitUntilStored().empty())
        return {};
    return recorder->id();
}

// The ids of runs 0..n-1, oldest first; empty on a store error.
inline std::vector<RunId> store(RunStore& store, int n)
{
    std::vector<RunId> ids;
    for (int i = 0; i < n; ++i) {
        ids.push_back(storeOne(store, i));
        if (ids.back().str().empty())
            return {};
    }
    return ids;
}

// ids[from], ids[from - 1], … down to ids[to]: newest first.
inline std::vector<RunId> newestFirst(const std::vector<RunId>& ids, int from, int to)
{
    std::vector<RunId> out;
    for (int i = from; i >= to; --i)
        out.push_back(ids[size_t(i)]);
    return out;
}

} // namespace sample_runs
