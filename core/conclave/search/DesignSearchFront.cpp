#include "conclave/search/DesignSearchState.h"

#include "conclave/experiment/TrialSummaries.h"

#include <algorithm>
#include <cmath>

namespace conclave {

std::vector<DesignSearch::FrontPoint> DesignSearch::State::frontPoints(const std::vector<int>& ids, const std::vector<size_t>& taskList) const
{
    std::vector<FrontPoint> out;
    for (const int id : ids) {
        FrontPoint p;
        p.candidate = id;
        p.name = result.candidates[size_t(id - 1)].name;
        p.figures = trials[size_t(id - 1)].figures(taskList);
        std::vector<double> accuracies;
        for (const double a : trials[size_t(id - 1)].taskAccuracy(taskList)) {
            if (!std::isnan(a))
                accuracies.push_back(a);
        }
        // A mean of accuracies: its interval stays within [0, 1].
        p.accuracyCi = ExperimentStats::meanWithCi(accuracies).second;
        p.accuracyCi = {std::clamp(p.accuracyCi.lo, 0.0, 1.0), std::clamp(p.accuracyCi.hi, 0.0, 1.0)};
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<int> DesignSearch::State::currentSearchFront() const
{
    const int top = int(result.rungTasks.size()) - 1;
    std::vector<int> ids;
    std::map<int, ObjectiveFigures> figures;
    for (const auto& c : result.candidates) {
        if (c.status != CandidateStatus::Dropped && c.twinOf == 0 && c.rung == top) {
            ids.push_back(c.id);
            figures[c.id] = rungFigures[size_t(c.id - 1)][size_t(top)];
        }
    }
    return ids.empty() ? ids : nonDominated(ids, figures);
}

void DesignSearch::State::report(std::string phase)
{
    if (!onProgress)
        return;
    Progress p;
    p.phase = std::move(phase);
    p.generation = generation;
    p.trials = result.searchTrials + result.validationTrials + result.testTrials;
    p.seconds = elapsed();
    p.candidates = result.candidates.size();
    for (const auto& c : result.candidates) {
        (c.status == CandidateStatus::Dropped ? p.dropped : p.alive) += 1;
        p.twins += c.status != CandidateStatus::Dropped && c.twinOf != 0 ? 1 : 0;
    }
    p.front = frontPoints(currentSearchFront(), result.parts.search);
    onProgress(p);
}

void DesignSearch::State::chooseAndTest()
{
    const auto searchFront = currentSearchFront();
    result.searchFront = searchFront;
    for (const int id : searchFront)
        result.searchFigures[id] = trials[size_t(id - 1)].figures(result.parts.search);
    if (searchFront.empty())
        return;
    if (!evaluate(searchFront, result.parts.validation, "validation", &result.validationTrials))
        return;
    for (const int id : searchFront)
        result.validationFigures[id] = trials[size_t(id - 1)].figures(result.parts.validation);
    report("validation");
    result.front = nonDominated(searchFront, result.validationFigures);
    std::sort(result.front.begin(), result.front.end(), [&](int a, int b) {
        const double fa = result.validationFigures[a][Objective::Accuracy];
        const double fb = result.validationFigures[b][Objective::Accuracy];
        return fa != fb ? fa > fb : a < b;
    });
    for (const int id : searchFront) {
        auto& c = candidate(id);
        if (std::find(result.front.begin(), result.front.end(), id) != result.front.end()) {
            c.status = CandidateStatus::Front;
        } else {
            c.why = "on the search part's front, not on validation's";
        }
        dirty[size_t(id - 1)] = true;
    }
    flushJournal();
    test();
}

// The front, the bases as drawn and the references, once on the test part.
void DesignSearch::State::test()
{
    std::vector<int> ids;
    for (size_t b = 0; b < space.bases().size(); ++b) {
        const int id = byKey.at(SearchSpace::key({b, std::vector<int>(space.parameters().size(),
                                                                      SearchSpace::kBaseValue)}));
        if (designs[size_t(id - 1)])
            ids.push_back(id);
    }
    const size_t bases = ids.size();
    for (const int id : result.front) {
        if (std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    }
    if (!evaluate(ids, result.parts.test, "test", &result.testTrials))
        return;
    ExperimentSpec spec;
    spec.name = "design search: test";
    std::vector<std::string> names;
    std::vector<TrialRecord> records;
    const auto add = [&](const std::string& name) {
        auto unique = name;
        for (int k = 2; std::find(names.begin(), names.end(), unique) != names.end(); ++k)
            unique = name + " #" + std::to_string(k);
        names.push_back(unique);
    };
    for (size_t i = 0; i < bases; ++i) {
        add(candidate(ids[i]).name + " (as drawn)");
        result.testCandidates.push_back(ids[i]);
    }
    // References run now: they are not candidates, and nothing else measures them.
    if (!options.references.empty()) {
        std::vector<const Task*> selected;
        for (const size_t t : result.parts.test)
            selected.push_back(&tasks->tasks()[t]);
        ExperimentSpec refs;
        refs.name = "design search: references";
        for (const auto& r : options.references)
            refs.designs.push_back(makeDesign(r.team.name, r.file, r.team));
        refs.tasksetName = "search";
        refs.tasks = std::make_shared<const TaskSet>(tasks->subset(selected));
        refs.seeds = options.trialSeeds;
        refs.clock = ClockRequest::Virtual;
        std::string error;
        std::vector<TrialRecord> refTrials;
        if (!TrialSummaries::evaluate(engine, refs, error, &refTrials)) {
            result.status = Status::Failed;
            result.error = "a reference: " + error;
            return;
        }
        for (size_t r = 0; r < options.references.size(); ++r) {
            add(options.references[r].team.name);
            result.testCandidates.push_back(0);
        }
        for (auto& t : refTrials) {
            t.design += int(bases);
            records.push_back(std::move(t));
        }
        result.testTrials += int64_t(refTrials.size());
    }
    for (size_t i = bases; i < ids.size(); ++i) {
        add(candidate(ids[i]).name);
        result.testCandidates.push_back(ids[i]);
    }
    // Every candidate's trials as records of one experiment, design by design.
    for (size_t d = 0; d < result.testCandidates.size(); ++d) {
        const int id = result.testCandidates[d];
        if (id == 0)
            continue;
        result.testFigures[id] = trials[size_t(id - 1)].figures(result.parts.test);
        for (const size_t t : result.parts.test) {
            for (size_t s = 0; s < options.trialSeeds.size(); ++s) {
                const auto& cell = trials[size_t(id - 1)].at(t, s);
                TrialRecord r;
                r.design = int(d);
                r.designName = names[d];
                r.task = tasks->tasks()[t].id;
                r.domain = tasks->tasks()[t].domain;
                r.seed = options.trialSeeds[s];
                r.status = cell.failed ? RunStatus::Failed : RunStatus::Ok;
                if (cell.scored && !cell.failed)
                    r.correct = cell.right;
                r.wallUs = int64_t(std::llround(cell.wallMs * 1000));
                r.costUsd = cell.costUsd;
                r.tokens = int64_t(cell.tokens);
                r.calls = int(cell.calls);
                records.push_back(std::move(r));
            }
        }
    }
    result.testDesigns = names;
    result.test = ExperimentStats::summarize(names, 0, records);
    result.testRecords = std::move(records);
    report("test");
}
} // namespace conclave
