#include "conclave/experiment/CalibrationUncertainty.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/NormalOgive.h"
#include "conclave/experiment/TrialSummaries.h"
#include "conclave/session/BackendFactory.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunQueries.h"
#include "conclave/util/NumberText.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace conclave {

namespace {

constexpr double kSkillFloor = 1e-3; // skills are drawn in (0.001, 0.999): Φ⁻¹ stays finite
constexpr int kBatch = 25;           // resamples evaluated at once (bounds the trials kept in memory)

std::filesystem::path folderOf(const ExperimentDesign& design)
{
    return design.path.empty() ? std::filesystem::path() : std::filesystem::path(design.path).parent_path();
}

double clampSkill(double s)
{
    return std::clamp(s, kSkillFloor, 1 - kSkillFloor);
}

bool calibrated(const ModelProfile& profile)
{
    return profile.calibratedFrom && !profile.calibratedFrom->empty();
}

} // namespace

int64_t CalibrationBasis::answers() const
{
    int64_t total = 0;
    for (const auto& source : sources)
        total += source.answers;
    return total;
}

std::string CalibrationBasis::text() const
{
    std::string ids;
    for (const auto& source : sources)
        ids += (ids.empty() ? "" : ", ") + source.experiment;
    const auto n = answers();
    return std::string(sources.size() == 1 ? "experiment " : "experiments ") + ids + " (" + groupThousands(uint64_t(n)) +
           (n == 1 ? " answer)" : " answers)");
}

std::optional<CalibrationUncertainty::Resolved>
CalibrationUncertainty::resolve(const ExperimentDesign& design, const ModelsFile::Profiles& catalog, std::string& error)
{
    auto overrides = BackendFactory::profileOverrides(design.team, folderOf(design), error);
    if (!error.empty())
        return std::nullopt;
    for (auto& [name, profiles] : overrides)
        profiles = ModelsFile::overlay(catalog, profiles);
    return overrides;
}

std::optional<CalibrationBasis> CalibrationUncertainty::basis(const Resolved& backends)
{
    // Each calibrated model once (a model two backends simulate is one model), its answers per experiment summed.
    std::map<std::string, const ModelProfile*> models;
    for (const auto& [backend, profiles] : backends)
        for (const auto& [model, profile] : profiles)
            if (calibrated(profile))
                models.emplace(model, &profile);
    if (models.empty())
        return std::nullopt;
    CalibrationBasis out;
    for (const auto& [model, profile] : models) {
        out.models.push_back(model);
        for (const auto& source : *profile->calibratedFrom) {
            auto known = std::find_if(out.sources.begin(), out.sources.end(),
                                      [&](const CalibrationSource& s) { return s.experiment == source.experiment; });
            if (known == out.sources.end())
                out.sources.push_back(source);
            else
                known->answers += source.answers;
        }
    }
    return out;
}

Team CalibrationUncertainty::resample(const Team& design, const Resolved& backends, int r, uint64_t seed)
{
    Team team = design;
    for (const auto& [backend, profiles] : backends) {
        auto& block = team.backends.at(backend);
        for (const auto& [model, profile] : profiles) {
            if (!calibrated(profile) || !profile.skills)
                continue;
            std::map<std::string, double> drawn;
            for (const auto& [domain, skill] : *profile.skills) {
                const double a = NormalOgive::quantile(clampSkill(skill));
                double se = 0;
                if (profile.skillsCi) {
                    if (const auto ci = profile.skillsCi->find(domain); ci != profile.skillsCi->end())
                        se = (NormalOgive::quantile(clampSkill(ci->second.second)) -
                              NormalOgive::quantile(clampSkill(ci->second.first))) /
                             (2 * kZ);
                }
                const auto key = DeterministicRandom::key({model, domain}, seed);
                drawn[domain] = clampSkill(NormalOgive::cdf(a + se * DeterministicRandom::normal(key, uint64_t(r))));
            }
            if (!block.models)
                block.models.emplace();
            (*block.models)[model].skills = std::move(drawn);
        }
    }
    return team;
}

Interval CalibrationUncertainty::combine(double accuracy, const Interval& simulation, double resampleSd)
{
    const double spread = kZ * resampleSd;
    const double below = std::hypot(accuracy - simulation.lo, spread);
    const double above = std::hypot(simulation.hi - accuracy, spread);
    return {std::max(0.0, accuracy - below), std::min(1.0, accuracy + above)};
}

namespace {

// The task ids each calibrated experiment answered, bare and as SET/ID (how
// --tasks-out names a pooled id): read once per experiment, whatever designs share it.
class AnsweredTasks {
public:
    explicit AnsweredTasks(RunQueries& reader) : m_reader(reader) {}

    bool answered(const CalibrationBasis& basis, const std::string& task)
    {
        for (const auto& source : basis.sources)
            if (of(source.experiment).count(task))
                return true;
        return false;
    }

private:
    const std::set<std::string>& of(const std::string& experiment)
    {
        auto known = m_read.find(experiment);
        if (known != m_read.end())
            return known->second;
        auto& out = m_read[experiment];
        std::string error;
        const auto record = m_reader.experiment(experiment, error);
        if (const auto trials = m_reader.trials(experiment, error)) {
            for (const auto& trial : *trials) {
                out.insert(trial.task);
                if (record)
                    out.insert(record->taskset + "/" + trial.task);
            }
        }
        return out;
    }

    RunQueries& m_reader;
    std::map<std::string, std::set<std::string>> m_read;
};

// The accuracy of each resample in [first, last] of one design, over the spec's tasks and seeds.
bool runBatch(Engine& engine, const ExperimentSpec& spec, int design, const CalibrationUncertainty::Resolved& resolved,
              int first, int last, uint64_t seed, std::vector<double>& accuracies, std::string& error)
{
    ExperimentSpec batch = spec;
    batch.designs.clear();
    batch.baseline = 0;
    batch.clock = ClockRequest::Virtual;
    batch.storedId.reset();
    const auto& original = spec.designs[size_t(design)];
    for (int r = first; r <= last; ++r) {
        auto made = makeDesign("resample " + std::to_string(r), original.file,
                               CalibrationUncertainty::resample(original.team, resolved, r, seed));
        made.path = original.path;
        batch.designs.push_back(std::move(made));
    }
    const auto summary = TrialSummaries::evaluate(engine, batch, error);
    if (!summary)
        return false;
    for (const auto& figures : summary->designs)
        accuracies.push_back(figures.overall.accuracy);
    return true;
}

} // namespace

std::optional<std::vector<std::optional<DesignPrediction>>>
CalibrationUncertainty::predict(Engine& engine, const ExperimentSpec& spec, const ExperimentSummary& summary,
                                RunQueries* reader, int resamples, std::string& error)
{
    const auto& catalog = engine.resources().localModels;
    std::vector<std::optional<DesignPrediction>> out(spec.designs.size());
    const uint64_t seed = DeterministicRandom::hash(spec.id());
    std::optional<AnsweredTasks> answered;
    if (reader)
        answered.emplace(*reader);
    for (size_t d = 0; d < spec.designs.size() && d < summary.designs.size(); ++d) {
        const auto& design = spec.designs[d];
        const auto resolved = resolve(design, catalog, error);
        if (!resolved) {
            error = "design \"" + design.name + "\": " + error;
            return std::nullopt;
        }
        auto found = basis(*resolved);
        if (!found)
            continue;
        const auto& figures = summary.designs[d].overall;
        DesignPrediction prediction;
        prediction.basis = std::move(*found);
        prediction.simulationCi = figures.ci;
        prediction.ci = figures.ci;
        prediction.tasks = figures.tasks;
        if (answered)
            for (const auto& task : spec.tasks->tasks())
                prediction.unmeasuredTasks += answered->answered(prediction.basis, task.id) ? 0 : 1;
        if (resamples > 0) {
            std::vector<double> accuracies;
            for (int first = 1; first <= resamples; first += kBatch) {
                if (!runBatch(engine, spec, int(d), *resolved, first, std::min(resamples, first + kBatch - 1), seed,
                              accuracies, error)) {
                    error = "design \"" + design.name + "\": calibration uncertainty: " + error;
                    return std::nullopt;
                }
            }
            prediction.resamples = resamples;
            prediction.resampleSd = ExperimentStats::sampleSd(accuracies);
            prediction.ci = combine(figures.accuracy, figures.ci, prediction.resampleSd);
        }
        out[d] = std::move(prediction);
    }
    return out;
}

} // namespace conclave
