#include "conclave/analysis/RecentRuns.h"

#include "conclave/store/RunQueries.h"

namespace conclave {

std::vector<StoredRun> RecentRuns::lastFinished(RunQueries& queries, const std::string& team, int n, std::string& error)
{
    std::vector<StoredRun> runs;
    RunFilter filter;
    filter.team = team;
    const auto list = queries.list(filter, error);
    if (!list)
        return runs;
    for (const auto& summary : *list) {
        if (summary.status == RunStatus::Running || int(runs.size()) >= n)
            continue;
        if (auto run = queries.load(summary.id, false, error))
            runs.push_back(std::move(*run));
        else
            return {};
    }
    return runs;
}

} // namespace conclave
