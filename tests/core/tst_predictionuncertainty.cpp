// Predictions were overconfident (issue 31's fourth finding): a simulated CI
// reflected the simulated draws only, not that each fitted skill came from a
// few hundred answers (on the lab, the strongest model predicted at 84.2 %
// [81.0, 88.3] and measured at 89.1 % [85.6, 92.7]). Here a model of known
// skill answers a small measurement (60 answers), is calibrated from it, and
// its prediction on 400 other tasks is checked against the truth — the same
// model at its true skill on the same tasks and seed — over eight measurements:
// the simulated draws alone miss the truth most of the time; with the fitted
// skill's uncertainty carried (CalibrationUncertainty), the CI holds it.
#include <QtTest>

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/experiment/CalibrationUncertainty.h"
#include "conclave/experiment/ModelCalibration.h"
#include "conclave/experiment/TrialSummaries.h"
#include "conclave/io/TeamJson.h"
#include "conclave/local/ItemBank.h"
#include "conclave/session/Engine.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

using namespace conclave;

namespace {

const std::filesystem::path kResources = CONCLAVE_RESOURCES;
constexpr double kTrueSkill = 0.7;

// One expert on model "m" with the given inline profile.
Team expertOn(const nlohmann::json& profile)
{
    const nlohmann::json team{{"conclave", 3},
                              {"name", "one expert"},
                              {"backends", {{"local", {{"kind", "local-moe"}, {"models", {{"m", profile}}}}}}},
                              {"defaults", {{"backend", "local"}}},
                              {"nodes", nlohmann::json::array({{{"id", "in"}, {"kind", "input"}},
                                                               {{"id", "e"}, {"kind", "expert"}, {"model", "m"},
                                                                {"prompt", "{{input}}"}},
                                                               {{"id", "out"}, {"kind", "output"}}})},
                              {"edges", nlohmann::json::array({{{"from", "in"}, {"to", "e"}},
                                                               {{"from", "e"}, {"to", "out"}}})}};
    return *teamFromJsonText(team.dump()).team;
}

// 60 answers of a model of skill 0.7 on tasks of random difficulty (the simulator's curve), calibrated.
ModelProfile calibratedFrom(uint64_t measurement)
{
    CalibrationSamples samples;
    samples.experiments = {"e-measurement" + std::to_string(measurement)};
    samples.answersPerExperiment = {60};
    for (int t = 0; t < 60; ++t) {
        const auto key = DeterministicRandom::key({"task", std::to_string(t)}, measurement);
        CalibrationSamples::Answer a;
        a.model = "m";
        a.domain = "facts";
        a.task = "measured\n" + std::to_string(t);
        a.correct = DeterministicRandom::unit(key, 2) < ItemBank::pCorrect(kTrueSkill, DeterministicRandom::normal(key, 1));
        a.answer = a.correct ? "right" : "wrong";
        samples.answers.push_back(a);
        samples.calls.push_back({.model = "m", .ok = true, .durationMs = 100});
    }
    auto fit = ModelCalibration::fit(samples, {}, {});
    return fit.models.at("m");
}

// 400 four-choice facts tasks of typical difficulty (each drawn from its id).
std::shared_ptr<const TaskSet> manyTasks()
{
    std::string lines;
    for (int t = 0; t < 400; ++t)
        lines += "{\"id\": \"q" + std::to_string(t) + "\", \"domain\": \"facts\", \"prompt\": \"Question " +
                 std::to_string(t) + "?\", \"answer\": \"a\", \"choices\": [\"a\", \"b\", \"c\", \"d\"]}\n";
    auto loaded = TaskSet::fromJsonLines(lines);
    return std::make_shared<const TaskSet>(std::move(*loaded.tasks));
}

ExperimentSpec specOf(const Team& team)
{
    static const auto tasks = manyTasks();
    ExperimentSpec spec;
    spec.name = "prediction";
    spec.designs.push_back(makeDesign("one expert", "", team));
    spec.tasksetName = "many";
    spec.tasks = tasks;
    spec.seeds = {1};
    spec.clock = ClockRequest::Virtual;
    return spec;
}

ExperimentSummary run(Engine& engine, const ExperimentSpec& spec)
{
    std::string error;
    auto summary = TrialSummaries::evaluate(engine, spec, error);
    if (!summary)
        qFatal("%s", error.c_str());
    return std::move(*summary);
}

} // namespace

class TestPredictionUncertainty : public QObject {
    Q_OBJECT

private slots:
    void theFittedSkillsUncertaintyIsCarried();
};

void TestPredictionUncertainty::theFittedSkillsUncertaintyIsCarried()
{
    std::vector<std::string> errors;
    Engine engine(EngineResources::load(kResources, errors), 2);
    // The truth: the model at its true skill on the same tasks and seed.
    const auto truth = run(engine, specOf(expertOn({{"skills", {{"facts", kTrueSkill}}}})));
    const double trueAccuracy = truth.designs[0].overall.accuracy;
    int simulationOnly = 0;
    int carried = 0;
    QStringList seen;
    for (uint64_t measurement = 1; measurement <= 8; ++measurement) {
        const auto profile = calibratedFrom(measurement);
        QVERIFY(profile.calibratedFrom && profile.skillsCi);
        nlohmann::json inline_{{"skills", *profile.skills},
                               {"skills_ci", {{"facts", {profile.skillsCi->at("facts").first,
                                                         profile.skillsCi->at("facts").second}}}},
                               {"calibrated_from", {{{"experiment", "e-measurement"}, {"answers", 60}}}}};
        if (profile.difficultyWeight)
            inline_["difficulty_weight"] = *profile.difficultyWeight;
        const auto spec = specOf(expertOn(inline_));
        const auto summary = run(engine, spec);
        std::string error;
        const auto predictions = CalibrationUncertainty::predict(engine, spec, summary, nullptr, 30, error);
        QVERIFY2(predictions && (*predictions)[0], error.c_str());
        const auto& p = *(*predictions)[0];
        QCOMPARE(p.resamples, 30);
        QVERIFY(p.ci.lo < p.simulationCi.lo && p.ci.hi > p.simulationCi.hi);
        simulationOnly += p.simulationCi.lo <= trueAccuracy && trueAccuracy <= p.simulationCi.hi ? 1 : 0;
        carried += p.ci.lo <= trueAccuracy && trueAccuracy <= p.ci.hi ? 1 : 0;
        seen << QString("skill %1: sim [%2, %3], carried [%4, %5]")
                    .arg(profile.skills->at("facts"))
                    .arg(p.simulationCi.lo)
                    .arg(p.simulationCi.hi)
                    .arg(p.ci.lo)
                    .arg(p.ci.hi);
    }
    const auto why = QString("truth %1; %2").arg(trueAccuracy).arg(seen.join("; "));
    QVERIFY2(carried == 8, qPrintable(why));
    QCOMPARE(simulationOnly, 5); // a 95 % interval that holds the truth 5 times in 8
    QCOMPARE(carried, 8);
}

QTEST_GUILESS_MAIN(TestPredictionUncertainty)
#include "tst_predictionuncertainty.moc"
