#include "conclave/analysis/TaskMatrix.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace conclave {

TaskMatrixCell::Outcome TaskMatrixCell::outcome() const
{
    if (trials == 0)
        return Outcome::NotRun;
    if (scored() == 0)
        return Outcome::Unscored;
    if (correct == scored())
        return Outcome::Correct;
    if (correct == 0)
        return failed == wrong ? Outcome::Failed : Outcome::Wrong;
    return Outcome::Mixed;
}

TaskMatrix TaskMatrix::build(const std::vector<std::string>& designs, const ExperimentSummary& summary,
                             const std::vector<TrialRecord>& trials)
{
    TaskMatrix m;
    m.m_designs = designs.size();
    std::vector<std::string> domains;
    std::map<std::string, size_t, std::less<>> rowOf;
    std::vector<TaskMatrixRow> inTrialOrder;
    for (const auto& t : trials) {
        if (t.design < 0 || size_t(t.design) >= designs.size())
            continue;
        auto [it, fresh] = rowOf.try_emplace(t.task, inTrialOrder.size());
        if (fresh) {
            inTrialOrder.push_back(
                {.task = t.task, .domain = t.domain, .cells = std::vector<TaskMatrixCell>(designs.size())});
            if (std::find(domains.begin(), domains.end(), t.domain) == domains.end())
                domains.push_back(t.domain);
        }
        auto& cell = inTrialOrder[it->second].cells[size_t(t.design)];
        ++cell.trials;
        cell.runs.emplace_back(t.seed, t.runId);
        if (ExperimentStats::scored(t)) {
            const bool right = ExperimentStats::right(t);
            cell.correct += right ? 1 : 0;
            cell.wrong += right ? 0 : 1;
            cell.failed += t.failed() ? 1 : 0;
        }
    }
    for (size_t d = 0; d < summary.designs.size() && d < designs.size(); ++d) {
        if (!summary.designs[d].vsBaseline)
            continue;
        for (const auto& task : summary.designs[d].vsBaseline->regressedTasks) {
            if (const auto it = rowOf.find(task); it != rowOf.end()) {
                inTrialOrder[it->second].cells[d].regressed = true;
                inTrialOrder[it->second].regressed = true;
            }
        }
    }
    for (auto& row : inTrialOrder) {
        for (auto& cell : row.cells)
            std::sort(cell.runs.begin(), cell.runs.end());
        std::optional<double> first;
        for (const auto& cell : row.cells) {
            if (cell.scored() == 0)
                continue;
            if (!first)
                first = cell.accuracy();
            else if (std::fabs(*first - cell.accuracy()) > 1e-12)
                row.differs = true;
        }
    }
    for (const auto& domain : domains) {
        for (auto& row : inTrialOrder) {
            if (row.domain == domain)
                m.m_rows.push_back(std::move(row));
        }
    }
    return m;
}

std::vector<const TaskMatrixRow*> TaskMatrix::rows(Filter filter) const
{
    std::vector<const TaskMatrixRow*> out;
    for (const auto& row : m_rows) {
        if (filter == Filter::All || (filter == Filter::Differs && row.differs) ||
            (filter == Filter::Regressions && row.regressed))
            out.push_back(&row);
    }
    return out;
}

} // namespace conclave
