// ExperimentReport on a fixed experiment built in memory: a simulated
// baseline that is wrong on every trial against a paid design right on every
// trial (4 tasks, 2 seeds). Exact JSON figures, the Markdown table and its
// footnote naming the methods actually used, the terminal table, and
// provenance in each of them.
#include <QtTest>

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/io/TeamJson.h"

#include <nlohmann/json.hpp>

using namespace conclave;
using nlohmann::json;

namespace {

Team expertTeam(const char* name, const json& backend)
{
    auto loaded =
        teamFromJson(json{{"conclave", 1},
                          {"name", name},
                          {"backends", {{"b", backend}}},
                          {"nodes",
                           {{{"id", "in"}, {"kind", "input"}},
                            {{"id", "solver"}, {"kind", "expert"}, {"model", "m"}},
                            {{"id", "out"}, {"kind", "output"}}}},
                          {"edges", {{{"from", "in"}, {"to", "solver"}}, {{"from", "solver"}, {"to", "out"}}}}});
    if (!loaded.team)
        qFatal("the test team does not load");
    return *loaded.team;
}

ExperimentReport makeReport(std::vector<uint64_t> seeds)
{
    ExperimentSpec spec;
    spec.designs.push_back(makeDesign("local", "", expertTeam("local", {{"kind", "local-moe"}})));
    spec.designs.push_back(makeDesign(
        "paid", "",
        expertTeam("paid", {{"kind", "openai"}, {"base_url", "http://127.0.0.1:9/v1"}, {"api_key_env", "NO_KEY"}})));
    auto tasks = TaskSet::fromJsonLines(R"({"id":"a","prompt":"1+1","answer":"2"}
{"id":"b","prompt":"2+2","answer":"4"}
{"id":"c","prompt":"3+3","answer":"6"}
{"id":"d","prompt":"4+4","answer":"8"})");
    if (!tasks.tasks)
        qFatal("the test tasks do not load");
    spec.tasksetName = "sums";
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = seeds;
    ExperimentRecord record;
    record.id = spec.id();
    record.name = "report test";
    record.status = ExperimentStatus::Finished;
    record.specJson = spec.toJson().dump();
    record.designs = spec.designNames();
    record.taskset = "sums";
    record.plannedTrials = int64_t(2 * 4 * seeds.size());
    std::vector<TrialRecord> trials;
    for (const char* task : {"a", "b", "c", "d"}) {
        for (const uint64_t seed : seeds) {
            for (int design : {0, 1}) {
                TrialRecord t;
                t.experimentId = record.id;
                t.design = design;
                t.designName = design == 0 ? "local" : "paid";
                t.task = task;
                t.seed = seed;
                t.correct = design == 1;
                t.costUsd = design == 1 ? 0.002 : 0.001;
                t.wallUs = design == 1 ? 3000 : 1000;
                trials.push_back(t);
            }
        }
    }
    std::string error;
    auto report = ExperimentReport::make(record, trials, error);
    if (!report)
        qFatal("%s", error.c_str());
    return std::move(*report);
}

} // namespace

class TestExperimentReport : public QObject {
    Q_OBJECT

private slots:
    void provenanceOfEachDesignAndOfAll()
    {
        const auto r = makeReport({1, 2});
        QCOMPARE(r.provenances.size(), size_t(2));
        QCOMPARE(r.provenances[0].text(), std::string("simulated"));
        QCOMPARE(r.provenances[1].text(), std::string("measured"));
        QCOMPARE(r.provenance.text(), std::string("simulated")); // one simulated design makes it so
        QVERIFY(!r.judge);
    }

    void json()
    {
        const auto j = makeReport({1, 2}).json();
        QCOMPARE(j["provenance"].get<std::string>(), std::string("simulated"));
        QCOMPARE(j["simulated"].get<bool>(), true);
        const auto& paid = j["designs"][1];
        QCOMPARE(paid["provenance"].get<std::string>(), std::string("measured"));
        QCOMPARE(paid["simulated"].get<bool>(), false);
        QCOMPARE(paid["trials"].get<int>(), 8);
        QCOMPARE(paid["scored"].get<int>(), 8);
        QCOMPARE(paid["correct"].get<int>(), 8);
        QCOMPARE(paid["tasks"].get<int>(), 4);
        QCOMPARE(paid["ci_method"].get<std::string>(), std::string("wilson_over_tasks"));
        const auto& vs = paid["vs_baseline"];
        QCOMPARE(vs["accuracy_delta"].get<double>(), 1.0);
        QCOMPARE(vs["ci_method"].get<std::string>(), std::string("newcombe"));
        QVERIFY(std::abs(vs["accuracy_delta_ci"][0].get<double>() - 0.307189735004) < 1e-9);
        QCOMPARE(vs["accuracy_delta_ci"][1].get<double>(), 1.0);
        QCOMPARE(vs["significant"].get<std::string>(), std::string("better"));
        QCOMPARE(vs["pairs"].get<int>(), 8);
        QCOMPARE(vs["cost_ratio"].get<double>(), 2.0);
        QCOMPARE(vs["wall_p50_ratio"].get<double>(), 3.0);
    }

    void markdownNamesTheMethodsUsed()
    {
        const auto md = QString::fromStdString(makeReport({1, 2}).markdown());
        QVERIFY2(md.contains("> **Simulated.**"), qPrintable(md));
        QVERIFY2(md.contains("| local | simulated | 0.0% [0.0, 49.0] | baseline |"), qPrintable(md));
        QVERIFY2(md.contains("| paid | measured | 100.0% [51.0, 100.0] | +100.0 pt [30.7, 100.0] better | 8/0/0 |"),
                 qPrintable(md));
        QVERIFY2(md.contains("\nAccuracy CIs: Wilson score interval over the tasks (every task at the same accuracy). "
                             "Δ: Newcombe's paired score interval over the tasks (every task moved by the same "
                             "amount); better or worse when its CI excludes 0. Cost and wall ratios: over the (task, "
                             "seed) pairs both designs ran. Baseline: local.\n"),
                 qPrintable(md));
        // One seed: Wilson over the trials, and a paired t interval... which has no spread here either.
        const auto one = QString::fromStdString(makeReport({1}).markdown());
        QVERIFY2(one.contains("\nAccuracy CIs: Wilson score interval over the trials. Δ: Newcombe's"), qPrintable(one));
    }

    void tableSaysWhereItsFiguresComeFrom()
    {
        const auto table = QString::fromStdString(makeReport({1, 2}).table());
        const auto lines = table.split('\n');
        QVERIFY2(lines[0].startsWith("design") && lines[0].endsWith("clock  provenance"), qPrintable(table));
        QVERIFY2(lines[1].startsWith("local") && lines[1].endsWith("simulated"), qPrintable(table));
        QVERIFY2(lines[2].startsWith("paid") && lines[2].endsWith("measured"), qPrintable(table));
        QVERIFY2(lines[2].contains("+100.0 pt [30.7, 100.0] better"), qPrintable(table));
        QVERIFY2(table.contains("paid: 0 tasks below the baseline; over the 8 (task, seed) pairs both ran, cost 2.00x, "
                                "p50 wall 3.00x the baseline's\n"),
                 qPrintable(table));
        QVERIFY2(table.contains("\nsimulated: these results come from the local-moe simulator, not from real models\n"),
                 qPrintable(table));
    }
};

QTEST_GUILESS_MAIN(TestExperimentReport)
#include "tst_experimentreport.moc"
