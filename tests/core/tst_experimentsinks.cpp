// Where trials go and what the runner owns: trials in memory or as rows
// only, a trial's run rebuilt exactly, a store that fails mid-experiment
// (the experiment ends failed, nothing it started is left running or
// freed early), a cost limit counted across resumes, no run without its trial.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/experiment/TrialRebuild.h"
#include "conclave/experiment/TrialSummaries.h"
#include "conclave/io/TeamFile.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"

#include <QRegularExpression>
#include <QTemporaryDir>

#include <atomic>
#include <filesystem>
#include <map>

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

ExperimentSpec specOf(const std::vector<std::string>& examples, const std::string& taskset,
                      std::vector<uint64_t> seeds)
{
    std::vector<std::pair<std::string, std::string>> named;
    std::vector<Team> teams;
    for (const auto& name : examples) {
        teams.push_back(*loadTeamFile(example(name)).team);
        named.emplace_back(teams.back().name, example(name));
    }
    const auto names = nameDesigns(named);
    ExperimentSpec spec;
    for (size_t i = 0; i < teams.size(); ++i)
        spec.designs.push_back(makeDesign(names[i], example(examples[i]), teams[i]));
    auto tasks = TaskSet::load(std::string(CONCLAVE_RESOURCES) + "/tasksets/" + taskset + ".jsonl");
    spec.tasksetName = taskset;
    spec.tasksetBundled = true;
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = std::move(seeds);
    spec.name = "sinks";
    return spec;
}

std::map<std::tuple<int, std::string, uint64_t>, TrialRecord> byKey(const std::vector<TrialRecord>& trials)
{
    std::map<std::tuple<int, std::string, uint64_t>, TrialRecord> out;
    for (const auto& t : trials)
        out[{t.design, t.task, t.seed}] = t;
    return out;
}

// A store sink whose recorders run out after `recorders` trials, as a full disk would make them.
class FailingRecorders final : public TrialSink {
public:
    FailingRecorders(RunStore& store, int recorders) : m_inner(store, StoredTrials::Keep::Runs), m_left(recorders) {}
    std::optional<ExperimentRecord> experiment(const std::string& id, std::string& error) override
    {
        return m_inner.experiment(id, error);
    }
    std::optional<std::vector<TrialRecord>> trials(const std::string& id, std::string& error) override
    {
        return m_inner.trials(id, error);
    }
    std::optional<std::string> saveExperiment(const ExperimentRecord& record) override
    {
        return m_inner.saveExperiment(record);
    }
    std::unique_ptr<RunRecorder> recorder(const Team& team, const std::string& id, std::string& error) override
    {
        if (m_left-- <= 0) {
            error = "injected: no recorder";
            return nullptr;
        }
        return m_inner.recorder(team, id, error);
    }
    void add(const TrialRecord& trial) override { m_inner.add(trial); }
    Committed commit() override { return m_inner.commit(); }
    std::optional<std::string> finish(const std::string& id) override { return m_inner.finish(id); }

private:
    StoredTrials m_inner;
    int m_left;
};

// A sink that loses the trials of one commit, as a store whose batch failed for good would.
class LosingCommits final : public TrialSink {
public:
    std::optional<ExperimentRecord> experiment(const std::string& id, std::string& e) override
    {
        return m_inner.experiment(id, e);
    }
    std::optional<std::vector<TrialRecord>> trials(const std::string& id, std::string& e) override
    {
        return m_inner.trials(id, e);
    }
    std::optional<std::string> saveExperiment(const ExperimentRecord& record) override
    {
        m_saved = record;
        return m_inner.saveExperiment(record);
    }
    std::unique_ptr<RunRecorder> recorder(const Team&, const std::string&, std::string&) override { return nullptr; }
    void add(const TrialRecord& trial) override
    {
        ++m_added;
        m_inner.add(trial);
    }
    Committed commit() override { return m_added > 0 ? Committed{"injected: disk I/O error", 3} : Committed{}; }
    std::optional<std::string> finish(const std::string&) override { return std::nullopt; }
    const ExperimentRecord& saved() const { return m_saved; }

private:
    TrialSummaries m_inner;
    ExperimentRecord m_saved;
    int m_added = 0;
};

} // namespace

class TestExperimentSinks : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;

    std::unique_ptr<RunStore> open(const std::string& name)
    {
        return RunStore::open(m_dir.filePath(QString::fromStdString(name)).toStdString()).store;
    }

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }

    void summariesHoldWhatTheStoreHolds()
    {
        const auto spec = specOf({"triage", "cascade"}, "math", {1, 2});
        auto store = open("stored.sqlite");
        StoredTrials stored(*store, StoredTrials::Keep::Runs);
        ExperimentRunner a(m_h.engine(), stored, spec, {});
        QCOMPARE(st(a.run().status), QStringLiteral("finished"));
        TrialSummaries memory;
        ExperimentRunner b(m_h.engine(), memory, spec, {});
        const auto outcome = b.run();
        QCOMPARE(st(outcome.status), QStringLiteral("finished"));
        QCOMPARE(outcome.ran, int64_t(2 * 82 * 2));

        std::string error;
        const auto fromStore = byKey(*store->reader(error)->trials(a.id(), error));
        const auto fromMemory = byKey(memory.kept(b.id()));
        QCOMPARE(fromMemory.size(), fromStore.size());
        for (const auto& [key, t] : fromStore) {
            const auto& m = fromMemory.at(key);
            QVERIFY(m.runId.str().empty());
            QCOMPARE(m.answer, t.answer);
            QCOMPARE(m.correct, t.correct);
            QCOMPARE(m.wallUs, t.wallUs);
            QCOMPARE(m.costUsd, t.costUsd);
            QCOMPARE(m.tokens, t.tokens);
            QCOMPARE(m.agents.size(), t.agents.size());
        }
        // Run again into the same sink: everything is kept, nothing runs.
        ExperimentRunner again(m_h.engine(), memory, spec, {});
        const auto resumed = again.run();
        QCOMPARE(resumed.ran, int64_t(0));
        QCOMPARE(resumed.skipped, int64_t(2 * 82 * 2));
    }

    void rowsOnlyThenEveryTrialRebuildsExactly()
    {
        const auto spec = specOf({"triage", "mixture-of-agents"}, "mixed-small", {1, 2});
        auto store = open("rows.sqlite");
        StoredTrials rows(*store, StoredTrials::Keep::Rows);
        ExperimentRunner::Options options;
        options.virtualClockOnly = true;
        ExperimentRunner runner(m_h.engine(), rows, spec, options);
        QCOMPARE(st(runner.run().status), QStringLiteral("finished"));
        std::string error;
        auto reader = store->reader(error);
        const auto trials = *reader->trials(runner.id(), error);
        QCOMPARE(trials.size(), size_t(2 * 25 * 2));
        RunFilter all;
        all.includeTrials = true;
        QCOMPARE(*reader->count(all, error), int64_t(0)); // no run stored
        const auto experiment = *reader->experiment(runner.id(), error);
        int rebuilt = 0;
        for (const auto& t : trials) {
            QVERIFY(t.runId.str().empty());
            const auto key = t.designName + "/" + t.task + "/" + std::to_string(t.seed);
            const auto again = TrialRebuild::run(m_h.engine(), *store, experiment, key, CONCLAVE_RESOURCES);
            QVERIFY2(again.error.empty(), again.error.c_str());
            QVERIFY2(again.differences.empty(),
                     (key + ": " + (again.differences.empty() ? std::string() : again.differences.front())).c_str());
            QCOMPARE(again.rebuilt.answer, t.answer);
            QCOMPARE(again.rebuilt.wallUs, t.wallUs);
            ++rebuilt;
        }
        QCOMPARE(rebuilt, 100);
        QCOMPARE(*reader->count(RunFilter{}, error), int64_t(100)); // each rebuilt run is an ordinary stored run

        const auto missing = TrialRebuild::run(m_h.engine(), *store, experiment, "triage/nope/1", CONCLAVE_RESOURCES);
        QCOMPARE(QString::fromStdString(missing.error),
                 QString::fromStdString("experiment " + runner.id() + " has no trial \"triage/nope/1\"; name one as "
                                        "DESIGN/TASK/SEED, e.g. \"" + trials.front().designName + "/" +
                                        trials.front().task + "/" + std::to_string(trials.front().seed) + "\""));
    }

    void aRecorderFailingMidExperimentEndsItFailedAfterEveryRunEnded()
    {
        const auto spec = specOf({"triage", "review-board"}, "mixed-small", {1, 2, 3});
        auto store = open("recorder.sqlite");
        FailingRecorders sink(*store, 40);
        ExperimentRunner::Options options;
        options.concurrency = 16;
        ExperimentRunner runner(m_h.engine(), sink, spec, options);
        const auto outcome = runner.run();
        QCOMPARE(st(outcome.status), QStringLiteral("failed"));
        const auto why = QString::fromStdString("design \"" + spec.designs[0].name + "\": injected: no recorder");
        QCOMPARE(QString::fromStdString(outcome.error), why);
        QCOMPARE(QString::fromStdString(outcome.note), why);
        QVERIFY(outcome.ran > 0 && outcome.ran <= 40);

        std::string error;
        auto reader = store->reader(error);
        const auto record = *reader->experiment(runner.id(), error);
        QCOMPARE(st(record.status), QStringLiteral("failed"));
        QCOMPARE(QString::fromStdString(record.note), why);
        QCOMPARE(record.storedTrials, outcome.ran);
        // Runs cancelled by the failure are gone with their trials: every stored run is a trial's.
        RunFilter all;
        all.includeTrials = true;
        QCOMPARE(*reader->count(all, error), outcome.ran);
    }

    void aCommitThatLosesTrialsEndsTheExperimentFailedWithTheCount()
    {
        const auto spec = specOf({"triage"}, "math", {1});
        LosingCommits sink;
        ExperimentRunner runner(m_h.engine(), sink, spec, {});
        const auto outcome = runner.run();
        QCOMPARE(st(outcome.status), QStringLiteral("failed"));
        QCOMPARE(QString::fromStdString(outcome.note),
                 QStringLiteral("3 trials were not stored: injected: disk I/O error"));
        QCOMPARE(st(sink.saved().status), QStringLiteral("failed"));
        QCOMPARE(QString::fromStdString(sink.saved().note), QString::fromStdString(outcome.note));
    }

    // The same through a real store whose commits of seed-2 trials fail for good.
    void aStoreThatCannotCommitEndsTheExperimentFailed()
    {
        const auto spec = specOf({"triage"}, "math", {1, 2});
        auto store = open("refusing.sqlite");
        {
            SqliteDb db;
            QVERIFY(!db.open(store->path(), SqliteDb::Mode::ReadWrite));
            QVERIFY(!db.exec("CREATE TRIGGER fail_seed_2 BEFORE INSERT ON trials WHEN NEW.seed = 2 "
                             "BEGIN SELECT RAISE(ABORT, 'injected'); END"));
        }
        StoredTrials sink(*store, StoredTrials::Keep::Runs);
        ExperimentRunner runner(m_h.engine(), sink, spec, {});
        const auto outcome = runner.run();
        QCOMPARE(st(outcome.status), QStringLiteral("failed"));
        const QRegularExpression said(QStringLiteral("^(\\d+) trials? (was|were) not stored: (.*): injected$"));
        const auto match = said.match(QString::fromStdString(outcome.note));
        QVERIFY2(match.hasMatch(), outcome.note.c_str());
        QCOMPARE(match.captured(3).toStdString(), store->path().string());
        const int64_t lost = match.captured(1).toLongLong();
        QVERIFY(lost >= 82); // every seed-2 trial, and whatever shared a batch with one
        std::string error;
        auto reader = store->reader(error);
        const auto record = *reader->experiment(runner.id(), error);
        QCOMPARE(st(record.status), QStringLiteral("failed"));
        QCOMPARE(record.storedTrials + lost, outcome.ran);
    }

    void theCostLimitCountsEverythingSpentAcrossResumes()
    {
        const auto spec = specOf({"mixture-of-agents"}, "math", {1});
        TrialSummaries memory;
        ExperimentRunner::Options options;
        options.concurrency = 1;
        options.maxCostUsd = 0.03;
        ExperimentRunner first(m_h.engine(), memory, spec, options);
        const auto one = first.run();
        QCOMPARE(st(one.status), QStringLiteral("interrupted"));
        QVERIFY(one.ran > 0 && one.ran < 82);
        std::string error;
        const double spent = memory.experiment(first.id(), error)->spentUsd;
        QVERIFY(spent >= 0.03);
        double trialsCost = 0;
        for (const auto& t : memory.kept(first.id()))
            trialsCost += t.costUsd;
        QCOMPARE(spent, trialsCost);

        // The same limit again: already reached, nothing more starts.
        ExperimentRunner second(m_h.engine(), memory, spec, options);
        const auto two = second.run();
        QCOMPARE(two.ran, int64_t(0));
        char expected[128];
        std::snprintf(expected, sizeof expected,
                      "--max-cost $0.0300 reached: $%.4f spent; no new trials were started", spent);
        QCOMPARE(QString::fromStdString(two.note), QString::fromLatin1(expected));

        // A higher limit goes on from what was spent.
        options.maxCostUsd = 0.06;
        ExperimentRunner third(m_h.engine(), memory, spec, options);
        const auto three = third.run();
        QVERIFY(three.ran > 0);
        const double total = memory.experiment(first.id(), error)->spentUsd;
        QVERIFY(total >= 0.06);
        QVERIFY(total - memory.kept(first.id()).back().costUsd < 0.06);
    }

    void stoppingMidExperimentLeavesNoRunWithoutItsTrial()
    {
        const auto spec = specOf({"triage", "debate"}, "mixed-small", {1, 2});
        auto store = open("stopped.sqlite");
        StoredTrials sink(*store, StoredTrials::Keep::Runs);
        ExperimentRunner::Options options;
        options.concurrency = 8;
        ExperimentRunner runner(m_h.engine(), sink, spec, options);
        runner.setProgressHandler([&](const ExperimentRunner::Progress& p) {
            if (p.done == 20)
                runner.stop("stopped by the test");
        });
        const auto outcome = runner.run();
        QCOMPARE(st(outcome.status), QStringLiteral("cancelled"));
        std::string error;
        auto reader = store->reader(error);
        RunFilter all;
        all.includeTrials = true;
        QCOMPARE(*reader->count(all, error), outcome.ran);
        QCOMPARE(int64_t(reader->trials(runner.id(), error)->size()), outcome.ran);
    }

    // Two shards of one experiment set up from copies of its files in two
    // folders, with the paths typed differently: one id, and they merge.
    void shardsFromTwoFoldersMerge()
    {
        namespace fs = std::filesystem;
        std::vector<std::string> shards;
        std::string id;
        for (int i = 0; i < 2; ++i) {
            const fs::path folder = m_dir.filePath(QStringLiteral("machine-%1").arg(i)).toStdString();
            fs::create_directories(folder);
            fs::copy_file(example("triage"), folder / "triage.team.json", fs::copy_options::overwrite_existing);
            EvalRequest request;
            request.designFiles = {i == 0 ? (folder / "triage.team.json").string()
                                          : (folder / "." / "triage.team.json").string()};
            request.taskset = "mixed-small";
            request.seeds = {1, 2};
            const auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
            QVERIFY(setup.spec);
            if (i == 0)
                id = setup.spec->id();
            QCOMPARE(setup.spec->id(), id);
            auto store = open("machine-" + std::to_string(i) + ".sqlite");
            StoredTrials sink(*store, StoredTrials::Keep::Runs);
            ExperimentRunner::Options options;
            options.shard = Shard{i, 2};
            ExperimentRunner runner(m_h.engine(), sink, *setup.spec, options);
            QCOMPARE(st(runner.run().status), QStringLiteral("finished"));
            shards.push_back(store->path().string());
        }
        auto merged = open("merged-two-folders.sqlite");
        for (const auto& shard : shards) {
            const auto result = merged->mergeFrom(shard);
            QCOMPARE(QString::fromStdString(result.error), QString());
        }
        std::string error;
        QCOMPARE(merged->reader(error)->trials(id, error)->size(), size_t(25 * 2));
    }
};

QTEST_GUILESS_MAIN(TestExperimentSinks)
#include "tst_experimentsinks.moc"
