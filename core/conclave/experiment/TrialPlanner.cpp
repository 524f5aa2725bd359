#include "conclave/experiment/TrialPlanner.h"

#include <set>
#include <string>
#include <tuple>

namespace conclave {

TrialAgenda TrialPlanner::make(const ExperimentSpec& spec, std::optional<Shard> shard,
                               const std::vector<TrialRecord>& keptBefore)
{
    using Key = std::tuple<int, std::string, uint64_t>;
    TrialAgenda agenda;
    agenda.planned = planTrials(spec, shard);
    const auto& tasks = spec.tasks->tasks();
    std::set<Key> inPlan;
    for (const auto& t : agenda.planned)
        inPlan.emplace(t.design, tasks[t.task].id, t.seed);
    std::set<Key> kept;
    for (const auto& t : keptBefore) {
        Key key{t.design, t.task, t.seed};
        if (inPlan.count(key) && kept.insert(key).second)
            agenda.kept.push_back(t);
    }
    for (size_t i = 0; i < agenda.planned.size(); ++i) {
        const auto& t = agenda.planned[i];
        if (!kept.count({t.design, tasks[t.task].id, t.seed}))
            agenda.pending.push_back(i);
    }
    return agenda;
}

} // namespace conclave
