#include "conclave/whatif/DesignWhatIf.h"

#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/replay/RunRecordings.h"
#include "conclave/store/RunQueries.h"
#include "conclave/whatif/ProjectionRuns.h"
#include "conclave/whatif/SpeedupPlan.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace conclave {

std::optional<DesignWhatIf> DesignWhatIf::load(Engine& engine, RunQueries& reader,
                                               const std::string& experimentIdOrPrefix, const std::string& design,
                                               std::string& error, ModelsFile::Profiles simulatorModels)
{
    const auto record = reader.experiment(experimentIdOrPrefix, error);
    if (!record)
        return std::nullopt;
    const auto spec = StoredSpec::fromJson(record->specJson, error);
    if (!spec)
        return std::nullopt;
    const auto it = std::find_if(spec->designs.begin(), spec->designs.end(),
                                 [&](const ExperimentDesign& d) { return d.name == design; });
    if (it == spec->designs.end()) {
        std::string names;
        for (const auto& d : spec->designs)
            names += (names.empty() ? "" : ", ") + d.name;
        error = "experiment " + record->id + " has no design \"" + design + "\" (its designs: " + names + ")";
        return std::nullopt;
    }
    const int index = int(it - spec->designs.begin());
    const auto trials = reader.trials(record->id, error);
    if (!trials)
        return std::nullopt;
    const auto attempts = reader.experimentAttempts({record->id}, error);
    if (!attempts)
        return std::nullopt;
    std::map<RunId, std::vector<StoredAttempt>> byRun;
    for (const auto& a : *attempts)
        if (a.design == index)
            byRun[a.runId].push_back(a);

    ReplayTeam::Settings settings;
    settings.owner = "design \"" + design + "\" of experiment " + record->id;
    if (!it->path.empty())
        settings.teamFolder = std::filesystem::path(it->path).parent_path();
    settings.simulatorModels = std::move(simulatorModels);
    settings.realClock = spec->clock == ClockRequest::Real;
    std::vector<Trial> kept;
    std::set<NodeId> called;
    for (const auto& trial : *trials) {
        if (trial.design != index || trial.runId.str().empty())
            continue;
        Trial t;
        t.seed = trial.seed;
        auto calls = byRun.find(trial.runId);
        if (calls == byRun.end()) {
            // No call was made: its input is the run's.
            const auto run = reader.load(trial.runId, false, error);
            if (!run)
                return std::nullopt;
            t.input = run->summary.input;
            t.calls = std::make_shared<RunRecordings>(trial.runId, std::vector<StoredAttempt>{});
        } else {
            t.input = calls->second.front().input;
            for (const auto& a : calls->second) {
                called.insert(a.span.node);
                settings.waitsRecorded = settings.waitsRecorded && a.span.waitUs >= 0;
            }
            t.calls = std::make_shared<RunRecordings>(trial.runId, std::move(calls->second));
        }
        kept.push_back(std::move(t));
    }
    if (kept.empty()) {
        error = "experiment " + record->id + ", design \"" + design +
                "\": no trial's run was stored (eval --store summaries keeps only their figures): a profile "
                "replays their calls";
        return std::nullopt;
    }
    auto replay = ReplayTeam::make(engine, it->team, kept.front().calls, std::move(settings), error);
    if (!replay)
        return std::nullopt;
    DesignWhatIf out(engine, std::move(*replay));
    out.m_experiment = record->id;
    out.m_design = design;
    out.m_trials = std::move(kept);
    out.m_called = std::move(called);
    return out;
}

std::optional<SpeedupProfile> DesignWhatIf::profile(std::string& error) const
{
    const SpeedupPlan plan(m_replay.team(), m_called, m_replay.settings().waitsRecorded);
    std::vector<ProjectionRuns::Job> jobs;
    jobs.reserve(plan.changes().size() * m_trials.size());
    for (const auto& changes : plan.changes()) {
        const auto prepared = m_replay.prepared(changes, error);
        if (!prepared)
            return std::nullopt;
        for (const auto& trial : m_trials) {
            auto own = std::make_shared<PreparedTeam>(*prepared);
            own->replayAll = trial.calls;
            jobs.push_back({std::move(own), &trial.input, trial.seed});
        }
    }
    const auto walls = ProjectionRuns::walls(*m_engine, jobs, error);
    if (!walls)
        return std::nullopt;
    std::vector<std::vector<int64_t>> perChange(plan.changes().size());
    for (size_t c = 0; c < perChange.size(); ++c)
        for (size_t t = 0; t < m_trials.size(); ++t)
            perChange[c].push_back(std::llround(double((*walls)[c * m_trials.size() + t]) * m_replay.timeScale()));
    auto profile = plan.profile(perChange);
    profile.experiment = m_experiment;
    profile.design = m_design;
    profile.team = m_replay.team().name;
    return profile;
}

} // namespace conclave
