// The experiment runner end to end: trials stored as runs, common random
// numbers, a design listed twice, stop and resume, the cost limit, shards and
// merge, a judge.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/SharedEndpoints.h"
#include "conclave/io/TeamFile.h"
#include "conclave/store/RunStore.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace conclave;
using namespace enginetest;

namespace {

QString st(ExperimentStatus status)
{
    return QString::fromStdString(std::string(toString(status)));
}

std::string example(const std::string& name)
{
    return std::string(CONCLAVE_RESOURCES) + "/examples/" + name + ".team.json";
}

// The triage team with every node renamed and every prompt reworded: the same
// shape, so on the local backend it must draw exactly the same luck.
Team renamedTriage()
{
    auto team = *loadTeamFile(example("triage")).team;
    std::map<NodeId, NodeId> renamed;
    for (auto& node : team.nodes) {
        if (node.kind == NodeKind::Input || node.kind == NodeKind::Output)
            continue;
        const NodeId to(node.id.str() + "_renamed");
        renamed[node.id] = to;
        node.id = to;
        if (node.config.call.prompt)
            node.config.call.prompt = "Please think it through.\n" + *node.config.call.prompt;
        if (node.kind == NodeKind::Expert)
            node.config.call.system = "You are careful. " + node.config.call.system.value_or("");
    }
    for (auto& edge : team.edges) {
        if (renamed.count(edge.from))
            edge.from = renamed[edge.from];
        if (renamed.count(edge.to))
            edge.to = renamed[edge.to];
    }
    if (team.nodes.front().config.routes) {
        for (auto& node : team.nodes) {
            if (!node.config.routes)
                continue;
            for (auto& [label, targets] : *node.config.routes)
                for (auto& t : targets)
                    if (renamed.count(NodeId(t)))
                        t = renamed[NodeId(t)].str();
        }
    }
    team.name = "triage renamed";
    return team;
}

struct Fixture {
    QTemporaryDir dir;
    std::unique_ptr<RunStore> store;

    bool open(const std::string& name = "runs.sqlite")
    {
        auto opened = RunStore::open(dir.filePath(QString::fromStdString(name)).toStdString());
        store = std::move(opened.store);
        return bool(store);
    }
    std::string path(const std::string& name) const { return dir.filePath(QString::fromStdString(name)).toStdString(); }
};

ExperimentSpec specOf(std::vector<std::pair<std::string, Team>> designs, const std::string& taskset,
                      std::vector<uint64_t> seeds)
{
    std::vector<std::pair<std::string, std::string>> named;
    for (const auto& [file, team] : designs)
        named.emplace_back(team.name, file);
    const auto names = nameDesigns(named);
    ExperimentSpec spec;
    for (size_t i = 0; i < designs.size(); ++i)
        spec.designs.push_back(makeDesign(names[i], designs[i].first, designs[i].second));
    auto tasks = TaskSet::load(std::string(CONCLAVE_RESOURCES) + "/tasksets/" + taskset + ".jsonl");
    spec.tasksetName = taskset;
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = std::move(seeds);
    spec.name = "test";
    return spec;
}

std::optional<ExperimentReport> reportOf(RunStore& store, const std::string& id)
{
    std::string error;
    auto reader = store.reader(error);
    auto report = ExperimentReport::load(*reader, id, error);
    if (!report)
        qWarning("%s", error.c_str());
    return report;
}

} // namespace

class TestExperimentRunner : public QObject {
    Q_OBJECT

    EngineHarness m_h;

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }

    void trialsAreStoredRunsTaggedWithTheExperiment()
    {
        Fixture f;
        QVERIFY(f.open());
        const auto triage = *loadTeamFile(example("triage")).team;
        const auto vote = *loadTeamFile(example("keyword-vote")).team;
        auto spec = specOf({{example("triage"), triage}, {example("keyword-vote"), vote}}, "mixed-small", {1});
        StoredTrials runnerSink(*f.store, StoredTrials::Keep::Runs);
        ExperimentRunner runner(m_h.engine(), runnerSink, spec, {});
        const auto outcome = runner.run();
        QCOMPARE(QString::fromStdString(outcome.error), QString());
        QCOMPARE(st(outcome.status), QStringLiteral("finished"));
        QCOMPARE(outcome.ran, int64_t(50)); // 2 designs x 25 tasks x 1 seed
        QVERIFY(outcome.clocks == (std::vector<ClockKind>{ClockKind::Virtual, ClockKind::Virtual}));

        std::string error;
        auto reader = f.store->reader(error);
        const auto trials = *reader->trials(runner.id(), error);
        QCOMPARE(trials.size(), size_t(50));
        for (const auto& t : trials) {
            const auto run = reader->load(t.runId, false, error);
            QVERIFY2(run, error.c_str());
            QCOMPARE(run->summary.experimentId, runner.id());
            QCOMPARE(run->summary.seed, t.seed);
            QCOMPARE(run->output.answer, t.answer);
            QVERIFY(t.correct.has_value());
        }
        // Hidden from the run list unless asked for.
        QCOMPARE(*reader->count(RunFilter{}, error), int64_t(0));
        RunFilter withTrials;
        withTrials.includeTrials = true;
        QCOMPARE(*reader->count(withTrials, error), int64_t(50));
    }

    void renamedAndRewordedDesignsDrawTheSameLuck()
    {
        Fixture f;
        QVERIFY(f.open());
        const auto triage = *loadTeamFile(example("triage")).team;
        auto spec =
            specOf({{example("triage"), triage}, {"renamed.team.json", renamedTriage()}}, "mixed-small", {1, 2});
        StoredTrials runnerSink(*f.store, StoredTrials::Keep::Runs);
        ExperimentRunner runner(m_h.engine(), runnerSink, spec, {});
        QCOMPARE(st(runner.run().status), QStringLiteral("finished"));
        const auto report = reportOf(*f.store, runner.id());
        QVERIFY(report);
        std::map<std::pair<std::string, uint64_t>, std::pair<std::string, bool>> first;
        for (const auto& t : report->trials) {
            if (t.design == 0)
                first[{t.task, t.seed}] = {t.answer, *t.correct};
        }
        int compared = 0;
        for (const auto& t : report->trials) {
            if (t.design != 1)
                continue;
            const auto& a = first.at({t.task, t.seed});
            QCOMPARE(t.answer, a.first);
            QCOMPARE(*t.correct, a.second);
            ++compared;
        }
        QCOMPARE(compared, 50);
        // No task differs, so Δ = 0; with no spread, Newcombe's interval, symmetric and holding 0
        // (docs/experiments.md): the same luck shows no difference, and claims no more.
        const auto& vs = *report->summary.designs[1].vsBaseline;
        QCOMPARE(vs.accuracyDelta, 0.0);
        QCOMPARE(int(vs.accuracyDeltaCiMethod), int(CiMethod::Newcombe));
        QVERIFY(vs.accuracyDeltaCi.lo < 0 && std::abs(vs.accuracyDeltaCi.lo + vs.accuracyDeltaCi.hi) < 1e-12);
        QCOMPARE(int(vs.significance()), int(Significance::NotShown));
        QCOMPARE(vs.wins, int64_t(0));
        QCOMPARE(vs.losses, int64_t(0));
    }

    void aDesignListedTwiceHasNoDifference()
    {
        Fixture f;
        QVERIFY(f.open());
        const auto vote = *loadTeamFile(example("keyword-vote")).team;
        auto spec = specOf({{example("keyword-vote"), vote}, {example("keyword-vote"), vote}}, "math", {1, 2, 3});
        QCOMPARE(spec.designs[1].name, spec.designs[0].name + " #2");
        StoredTrials runnerSink(*f.store, StoredTrials::Keep::Runs);
        ExperimentRunner runner(m_h.engine(), runnerSink, spec, {});
        QCOMPARE(st(runner.run().status), QStringLiteral("finished"));
        const auto report = reportOf(*f.store, runner.id());
        QVERIFY(report);
        const auto& d = report->summary.designs[1];
        QCOMPARE(d.vsBaseline->accuracyDelta, 0.0);
        QCOMPARE(int(d.vsBaseline->accuracyDeltaCiMethod), int(CiMethod::Newcombe));
        QVERIFY(d.vsBaseline->accuracyDeltaCi.lo < 0 &&
                std::abs(d.vsBaseline->accuracyDeltaCi.lo + d.vsBaseline->accuracyDeltaCi.hi) < 1e-12);
        QCOMPARE(int(d.vsBaseline->significance()), int(Significance::NotShown));
        QCOMPARE(d.vsBaseline->regressions, int64_t(0));
        QCOMPARE(d.vsBaseline->ties, int64_t(82 * 3));
        QCOMPARE(d.overall.accuracy, report->summary.designs[0].overall.accuracy);
    }

    void stoppedThenResumedEqualsOneRun()
    {
        const auto triage = *loadTeamFile(example("triage")).team;
        const auto cascade = *loadTeamFile(example("cascade")).team;
        const auto spec = specOf({{example("triage"), triage}, {example("cascade"), cascade}}, "mixed-small", {1, 2});

        Fixture whole;
        QVERIFY(whole.open());
        StoredTrials onceSink(*whole.store, StoredTrials::Keep::Runs);
        ExperimentRunner once(m_h.engine(), onceSink, spec, {});
        QCOMPARE(st(once.run().status), QStringLiteral("finished"));
        const auto expected = reportOf(*whole.store, once.id())->json();

        Fixture f;
        QVERIFY(f.open());
        ExperimentRunner::Options options;
        options.concurrency = 4;
        StoredTrials firstSink(*f.store, StoredTrials::Keep::Runs);
        ExperimentRunner first(m_h.engine(), firstSink, spec, options);
        first.setProgressHandler([&](const ExperimentRunner::Progress& p) {
            if (p.done == 30)
                first.stop("stopped by the test");
        });
        const auto stopped = first.run();
        QCOMPARE(st(stopped.status), QStringLiteral("cancelled"));
        QCOMPARE(QString::fromStdString(stopped.note), QStringLiteral("stopped by the test"));
        QVERIFY(stopped.ran >= 30 && stopped.ran < 100);
        {
            const auto partial = reportOf(*f.store, first.id());
            QCOMPARE(st(partial->record.status), QStringLiteral("cancelled"));
            QCOMPARE(int64_t(partial->trials.size()), stopped.ran);
        }

        StoredTrials secondSink(*f.store, StoredTrials::Keep::Runs);
        ExperimentRunner second(m_h.engine(), secondSink, spec, {});
        const auto resumed = second.run();
        QCOMPARE(st(resumed.status), QStringLiteral("finished"));
        QCOMPARE(resumed.skipped, stopped.ran);
        QCOMPARE(resumed.ran, 100 - stopped.ran);
        auto got = reportOf(*f.store, second.id())->json();
        QCOMPARE(QString::fromStdString(got.dump(1)), QString::fromStdString(expected.dump(1)));
    }

    void theCostLimitStopsDispatching()
    {
        Fixture f;
        QVERIFY(f.open());
        const auto moa = *loadTeamFile(example("mixture-of-agents")).team;
        const auto spec = specOf({{example("mixture-of-agents"), moa}}, "math", {1});
        ExperimentRunner::Options options;
        options.concurrency = 1;
        options.maxCostUsd = 0.03;
        StoredTrials runnerSink(*f.store, StoredTrials::Keep::Runs);
        ExperimentRunner runner(m_h.engine(), runnerSink, spec, options);
        const auto outcome = runner.run();
        QCOMPARE(st(outcome.status), QStringLiteral("interrupted"));
        QVERIFY(outcome.ran > 0 && outcome.ran < 82);
        QVERIFY2(outcome.note.starts_with("--max-cost $0.0300 reached: $0.0"), outcome.note.c_str());
        QVERIFY2(outcome.note.ends_with(" spent; no new trials were started"), outcome.note.c_str());
        // One trial at a time: it stopped at the first trial that reached the limit.
        const auto report = reportOf(*f.store, runner.id());
        double spent = 0;
        for (size_t i = 0; i + 1 < report->trials.size(); ++i)
            spent += report->trials[i].costUsd;
        QVERIFY(spent < 0.03);
        QVERIFY(spent + report->trials.back().costUsd >= 0.03);
    }

    void shardsMergeIntoTheUnshardedSummary()
    {
        const auto triage = *loadTeamFile(example("triage")).team;
        const auto vote = *loadTeamFile(example("keyword-vote")).team;
        const auto spec = specOf({{example("triage"), triage}, {example("keyword-vote"), vote}}, "mixed-small", {1, 2});

        Fixture whole;
        QVERIFY(whole.open());
        StoredTrials onceSink(*whole.store, StoredTrials::Keep::Runs);
        ExperimentRunner once(m_h.engine(), onceSink, spec, {});
        QCOMPARE(st(once.run().status), QStringLiteral("finished"));
        auto expected = reportOf(*whole.store, once.id())->json();

        Fixture f;
        std::vector<std::string> shards;
        for (int i = 0; i < 3; ++i) {
            QVERIFY(f.open("shard-" + std::to_string(i) + ".sqlite"));
            ExperimentRunner::Options options;
            options.shard = Shard{i, 3};
            StoredTrials partSink(*f.store, StoredTrials::Keep::Runs);
            ExperimentRunner part(m_h.engine(), partSink, spec, options);
            QCOMPARE(part.id(), once.id());
            const auto outcome = part.run();
            QCOMPARE(st(outcome.status), QStringLiteral("finished"));
            QCOMPARE(outcome.ran, int64_t(i < 1 ? 34 : 33)); // 100 trials, index mod 3
            shards.push_back(f.store->path().string());
            f.store.reset();
        }
        QVERIFY(f.open("merged.sqlite"));
        for (const auto& shard : shards) {
            const auto merged = f.store->mergeFrom(shard);
            QCOMPARE(QString::fromStdString(merged.error), QString());
        }
        auto got = reportOf(*f.store, once.id())->json();
        QCOMPARE(got["status"], nlohmann::ordered_json("finished"));
        QCOMPARE(QString::fromStdString(got["designs"].dump(1)), QString::fromStdString(expected["designs"].dump(1)));
    }

    // Free-text tasks without a reference, judged by a perfect judge: a design
    // whose model always gives the simulator's hidden best answer is judged
    // correct on every trial, one whose model never does, incorrect on every trial.
    void aJudgeScoresFreeText()
    {
        Fixture f;
        QVERIFY(f.open());
        const auto tasksFile = f.path("free.jsonl");
        std::ofstream(tasksFile) << R"({"id": "w1", "prompt": "Write a haiku about the sea."})"
                                 << "\n"
                                 << R"({"id": "w2", "prompt": "Describe a quiet morning."})"
                                 << "\n";
        // One expert on a model (%1) of one skill (%2) in every domain.
        const auto oneModelTeam = [&](const std::string& name, int skill) {
            const std::string file = f.path(name + ".team.json");
            std::ofstream(file) << QStringLiteral(R"({
  "conclave": 1, "name": "%1",
  "backends": {"local": {"kind": "local-moe", "models": {"%1": {"skills": {"general": %2, "writing": %2,
      "reasoning": %2, "math": %2, "code": %2, "facts": %2}, "price_per_mtok": {"input": 1, "output": 1}}}}},
  "defaults": {"backend": "local", "model": "%1"},
  "nodes": [{"id": "in", "kind": "input"}, {"id": "e", "kind": "expert"}, {"id": "out", "kind": "output"}],
  "edges": [{"from": "in", "to": "e"}, {"from": "e", "to": "out"}]
})")
                                       .arg(QString::fromStdString(name))
                                       .arg(skill)
                                       .toStdString();
            return file;
        };
        EvalRequest request;
        request.designFiles = {oneModelTeam("sure", 1), oneModelTeam("clueless", 0)};
        request.taskset = tasksFile;
        request.seeds = {1, 2, 3, 4};
        request.judgeFile = oneModelTeam("oracle", 1);
        auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QVERIFY2(setup.spec, setup.errors.empty() ? "" : setup.errors.front().c_str());
        StoredTrials runnerSink(*f.store, StoredTrials::Keep::Runs);
        ExperimentRunner runner(m_h.engine(), runnerSink, *setup.spec, {});
        QCOMPARE(st(runner.run().status), QStringLiteral("finished"));
        const auto report = reportOf(*f.store, runner.id());
        QCOMPARE(report->trials.size(), size_t(16));
        std::map<int, int> trialsOf;
        for (const auto& t : report->trials) {
            const bool sure = t.design == 0;
            ++trialsOf[t.design];
            QCOMPARE(QString::fromStdString(t.scoreDetail),
                     sure ? QStringLiteral("judge: correct") : QStringLiteral("judge: incorrect"));
            QCOMPARE(t.correct, std::optional<bool>(sure));
            QVERIFY(t.judgeCostUsd > 0);
        }
        QCOMPARE(trialsOf, (std::map<int, int>{{0, 8}, {1, 8}}));
        QVERIFY(report->summary.designs[0].judgeCostUsd > 0);
        QVERIFY(report->judge && report->judge->kind == Provenance::Kind::Simulated);
        QCOMPARE(report->json()["scorer"], nlohmann::ordered_json("judge"));
    }

    void aTaskWithoutAnAnswerNeedsAJudge()
    {
        QTemporaryDir dir;
        const auto tasksFile = dir.filePath("free.jsonl").toStdString();
        std::ofstream(tasksFile) << R"({"id": "w1", "prompt": "Write a haiku about the sea."})"
                                 << "\n";
        EvalRequest request;
        request.designFiles = {example("triage")};
        request.taskset = tasksFile;
        const auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QVERIFY(!setup.spec);
        QCOMPARE(setup.errors, (std::vector<std::string>{
                                   "task \"w1\" has no answer; give one, or score with --judge JUDGE.team.json"}));
    }

    void theIdIsTheSpecs()
    {
        const auto triage = *loadTeamFile(example("triage")).team;
        auto a = specOf({{example("triage"), triage}}, "math", {1});
        auto b = a;
        b.name = "another name";
        QCOMPARE(a.id(), b.id());
        b.seeds = {1, 2};
        QVERIFY(a.id() != b.id());
        QCOMPARE(a.id().size(), size_t(14));
        QVERIFY(a.id().starts_with("e-"));
    }

    void designsOnOneEndpointShareItsStrictestLimits()
    {
        const auto endpoint = [](std::string url, std::optional<int64_t> inFlight, std::optional<int64_t> rpm) {
            Team team;
            Backend b;
            b.kind = BackendKind::OpenAi;
            b.baseUrl = std::move(url);
            b.maxConcurrency = inFlight;
            b.requestsPerMinute = rpm;
            team.backends.emplace(BackendName("remote"), b);
            return team;
        };
        std::vector<Team> teams{endpoint("http://a/v1", 8, std::nullopt), endpoint("http://a/v1", 4, 600),
                                endpoint("http://b/v1", 16, std::nullopt)};
        shareEndpointLimits(teams);
        const auto& a0 = teams[0].backends.at(BackendName("remote"));
        const auto& a1 = teams[1].backends.at(BackendName("remote"));
        const auto& b = teams[2].backends.at(BackendName("remote"));
        QCOMPARE(a0.maxConcurrency, std::optional<int64_t>(4));
        QCOMPARE(a1.maxConcurrency, std::optional<int64_t>(4));
        QCOMPARE(a0.requestsPerMinute, std::optional<int64_t>(600));
        QCOMPARE(b.maxConcurrency, std::optional<int64_t>(16));
        QCOMPARE(b.requestsPerMinute, std::optional<int64_t>());
    }

    void samplingIsDeterministicAndKeepsTheSetsOrder()
    {
        EvalRequest request;
        request.designFiles = {example("triage")};
        request.taskset = "math";
        request.sample = 5;
        const auto a = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        const auto b = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QVERIFY(a.spec && b.spec);
        QCOMPARE(a.spec->tasks->tasks().size(), size_t(5));
        QCOMPARE(a.spec->tasksHash(), b.spec->tasksHash());
        for (size_t i = 1; i < 5; ++i)
            QVERIFY(a.spec->tasks->tasks()[i - 1].id < a.spec->tasks->tasks()[i].id);
        request.sampleSeed = 1;
        const auto c = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QVERIFY(c.spec->tasksHash() != a.spec->tasksHash());
        request.sample.reset();
        request.domain = "nope";
        const auto d = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QCOMPARE(d.errors, (std::vector<std::string>{"--domain: no task of domain \"nope\" in math"}));
    }

    void aTeamAsOnScreenIsADesign()
    {
        // The studio's open team with unsaved edits: given as a team, first,
        // with no file; it resumes from its stored JSON.
        auto edited = *loadTeamFile(example("triage")).team;
        edited.name = "Triage, edited";
        EvalRequest request;
        request.designTeams = {edited};
        request.designFiles = {example("keyword-vote")};
        request.baselineFile = example("keyword-vote");
        request.taskset = "mixed-small";
        const auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QVERIFY2(setup.spec, setup.errors.empty() ? "" : setup.errors.front().c_str());
        QCOMPARE(setup.spec->designs.size(), size_t(2));
        QCOMPARE(QString::fromStdString(setup.spec->designs[0].name), QStringLiteral("Triage, edited"));
        QCOMPARE(QString::fromStdString(setup.spec->designs[0].file), QString());
        QCOMPARE(QString::fromStdString(setup.spec->designs[1].file), QString::fromStdString(example("keyword-vote")));
        QCOMPARE(setup.spec->baseline, 1);
        QCOMPARE(QString::fromStdString(setup.spec->name),
                 QStringLiteral("Keyword routing with a vote vs Triage, edited on mixed-small"));
        ExperimentRecord record;
        record.id = setup.spec->id();
        record.name = setup.spec->name;
        record.specJson = setup.spec->toJson().dump();
        const auto resumed = ExperimentSetup::resume(record, CONCLAVE_RESOURCES);
        QVERIFY2(resumed.spec, resumed.errors.empty() ? "" : resumed.errors.front().c_str());
        QCOMPARE(resumed.spec->designs[0].teamJson, setup.spec->designs[0].teamJson);
        // Nothing at all is still refused.
        EvalRequest none;
        none.taskset = "math";
        QCOMPARE(ExperimentSetup::build(none, CONCLAVE_RESOURCES).errors.front(),
                 std::string("eval: give at least one design (a team file)"));
    }

    void resumeRefusesAChangedTaskSet()
    {
        QTemporaryDir dir;
        const auto file = dir.filePath("tasks.jsonl").toStdString();
        std::ofstream(file) << R"({"id": "a", "prompt": "Calculate 2 + 2.", "answer": "4"})"
                            << "\n";
        EvalRequest request;
        request.designFiles = {example("keyword-vote")};
        request.taskset = file;
        auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
        QVERIFY(setup.spec);
        ExperimentRecord record;
        record.id = setup.spec->id();
        record.name = "x";
        record.specJson = setup.spec->toJson().dump();
        QVERIFY(ExperimentSetup::resume(record, CONCLAVE_RESOURCES).spec);
        std::ofstream(file) << R"({"id": "a", "prompt": "Calculate 2 + 3.", "answer": "5"})"
                            << "\n";
        const auto refused = ExperimentSetup::resume(record, CONCLAVE_RESOURCES);
        QVERIFY(!refused.spec);
        QCOMPARE(refused.errors.size(), size_t(1));
        QVERIFY2(refused.errors[0].starts_with("the task set " + file +
                                               " changed since the experiment started (content hash of its tasks "),
                 refused.errors[0].c_str());
    }
};

QTEST_GUILESS_MAIN(TestExperimentRunner)
#include "tst_experimentrunner.moc"
