// Recorded backends through the experiment runner, from a run store: a
// measured design replayed on its own tasks reproduces it exactly; another
// design is evaluated from the same recordings; a call nobody recorded fails
// with its name or is simulated; a judge's verdicts replay too; a design
// left out (exclude_designs) replays none of its calls.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/replay/ReplayNote.h"
#include "conclave/store/RunStore.h"

#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

using namespace conclave;
using namespace enginetest;

namespace {

// Three experts on catalog models voting: what is measured (here: simulated, then replayed).
json voteTeam(const json& backend, const std::vector<std::pair<std::string, std::string>>& experts)
{
    json doc{{"conclave", 1}, {"name", "vote"}, {"backends", {{"b", backend}}}};
    doc["defaults"] = {{"backend", "b"}, {"retries", 2}};
    doc["nodes"] = json::array({{{"id", "in"}, {"kind", "input"}}});
    doc["edges"] = json::array();
    for (const auto& [id, model] : experts) {
        doc["nodes"].push_back({{"id", id}, {"kind", "expert"}, {"model", model}});
        doc["edges"].push_back({{"from", "in"}, {"to", id}});
        doc["edges"].push_back({{"from", id}, {"to", experts.size() > 1 ? "vote" : "out"}});
    }
    if (experts.size() > 1) {
        doc["nodes"].push_back({{"id", "vote"}, {"kind", "aggregator"}, {"strategy", "majority"}});
        doc["edges"].push_back({{"from", "vote"}, {"to", "out"}});
    }
    doc["nodes"].push_back({{"id", "out"}, {"kind", "output"}});
    return doc;
}

const std::vector<std::pair<std::string, std::string>> kThree{
    {"e_math", "local/math-13b"}, {"e_facts", "local/facts-7b"}, {"e_gen", "local/generalist-7b"}};

json local()
{
    return {{"kind", "local-moe"}, {"seed", 42}};
}

json recorded(const std::string& experiment, const std::string& onMissing = "")
{
    json b{{"kind", "recorded"}, {"experiments", json::array({experiment})}};
    if (!onMissing.empty())
        b["on_missing"] = onMissing;
    return b;
}

json leavingOut(json backend, const std::vector<std::string>& designs)
{
    backend["exclude_designs"] = designs;
    return backend;
}

Team teamOf(const json& doc)
{
    auto loaded = teamFromJson(doc);
    for (const auto& p : loaded.problems)
        qWarning("%s", p.message.c_str());
    return *loaded.team;
}

// An experiment of the designs `teams` (name, team) on the mixed-small tasks.
ExperimentSpec specOf(const std::string& name, const std::vector<std::pair<std::string, Team>>& teams,
                      std::vector<uint64_t> seeds)
{
    ExperimentSpec spec;
    spec.name = name;
    for (const auto& [design, team] : teams)
        spec.designs.push_back(makeDesign(design, design + ".team.json", team));
    auto tasks = TaskSet::load(std::string(CONCLAVE_RESOURCES) + "/tasksets/mixed-small.jsonl");
    spec.tasksetName = "mixed-small";
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = std::move(seeds);
    return spec;
}

ExperimentSpec specOf(const std::string& name, const Team& team, std::vector<uint64_t> seeds)
{
    return specOf(name, {{name, team}}, std::move(seeds));
}

// The run a replayed attempt's note names.
RunId replayedRun(const Span& attempt)
{
    const auto from = attempt.note.substr(std::string("replayed: run ").size());
    return RunId(from.substr(0, from.find(' ')));
}

} // namespace

class TestExperimentReplay : public QObject {
    Q_OBJECT

    EngineHarness m_h;

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }
    // (a) The same design on the same tasks and seeds, replayed: every trial as measured.
    void replayingAMeasuredDesignReproducesItExactly()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite").toStdString();
        auto opened = RunStore::open(db);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        m_h.engine().setStore(db);

        StoredTrials sink(store, StoredTrials::Keep::Runs);
        ExperimentRunner measure(m_h.engine(), sink, specOf("vote", teamOf(voteTeam(local(), kThree)), {1, 2}), {});
        QCOMPARE(q(measure.run().error), QString());
        const auto measured = measuredReport(store, measure.id());
        QVERIFY(measured);

        ExperimentRunner replay(m_h.engine(), sink,
                                specOf("vote", teamOf(voteTeam(recorded(measure.id()), kThree)), {1, 2}), {});
        const auto outcome = replay.run();
        QCOMPARE(q(outcome.error), QString());
        QVERIFY(outcome.clocks == std::vector<ClockKind>{ClockKind::Virtual});
        const auto replayed = measuredReport(store, replay.id());
        QVERIFY(replayed);
        QVERIFY(replay.id() != measure.id());

        QCOMPARE(replayed->trials.size(), size_t(50));
        QCOMPARE(measured->trials.size(), size_t(50));
        int calls = 0;
        for (size_t i = 0; i < 50; ++i) {
            const auto& m = measured->trials[i];
            const auto& r = replayed->trials[i];
            const auto where = QString("%1/%2").arg(q(r.task)).arg(r.seed);
            QCOMPARE(q(r.task) + "/" + QString::number(r.seed), q(m.task) + "/" + QString::number(m.seed));
            QVERIFY2(r.status == m.status, qPrintable(where));
            QCOMPARE(q(r.answer), q(m.answer));
            QVERIFY2(r.correct == m.correct, qPrintable(where));
            QCOMPARE(r.costUsd, m.costUsd);
            QCOMPARE(r.tokens, m.tokens);
            QCOMPARE(r.calls, m.calls);
            QCOMPARE(r.wallUs, m.wallUs);
            QCOMPARE(r.replayedCalls, r.calls);
            QCOMPARE(m.replayedCalls, 0);
            calls += r.calls;
            // Each replayed attempt names the attempt it replays.
            std::string error;
            auto reader = store.reader(error);
            const auto original = reader->load(m.runId, false, error);
            const auto copy = reader->load(r.runId, false, error);
            QVERIFY2(original && copy, error.c_str());
            std::vector<Span> was, is;
            for (const auto& s : original->spans)
                if (s.kind == SpanKind::Attempt)
                    was.push_back(s);
            for (const auto& s : copy->spans)
                if (s.kind == SpanKind::Attempt)
                    is.push_back(s);
            QCOMPARE(is.size(), was.size());
            for (size_t k = 0; k < is.size(); ++k) {
                QCOMPARE(q(is[k].note), q(ReplayNote::make(m.runId, was[k].id)));
                QCOMPARE(is[k].startUs, was[k].startUs);
                QCOMPARE(is[k].endUs, was[k].endUs);
                QCOMPARE(is[k].ttftUs, was[k].ttftUs);
                QVERIFY(is[k].status == was[k].status);
            }
        }
        QVERIFY(calls >= 150);
        QCOMPARE(replayed->summary.designs.front().overall.accuracy,
                 measured->summary.designs.front().overall.accuracy);
        QCOMPARE(replayed->summary.designs.front().overall.correct, measured->summary.designs.front().overall.correct);
        QCOMPARE(q(measured->provenance.text()), QString("simulated"));
        QCOMPARE(q(replayed->provenance.text()), QString("replayed (100 % of calls)"));
        QCOMPARE(q(replayed->provenances.front().text()), QString("replayed (100 % of calls)"));

        // (b) Another design from the same recordings: the math expert alone answers as it did in the vote.
        ExperimentRunner alone(m_h.engine(), sink,
                               specOf("math alone", teamOf(voteTeam(recorded(measure.id()), {kThree.front()})), {1, 2}),
                               {});
        QCOMPARE(q(alone.run().error), QString());
        const auto single = measuredReport(store, alone.id());
        QVERIFY(single);
        QCOMPARE(single->trials.size(), size_t(50));
        std::string error;
        auto reader = store.reader(error);
        int correct = 0;
        for (size_t i = 0; i < 50; ++i) {
            const auto original = reader->load(measured->trials[i].runId, false, error);
            QVERIFY2(original, error.c_str());
            const auto it = std::find_if(original->nodes.begin(), original->nodes.end(),
                                         [](const StoredNode& n) { return n.node == NodeId("e_math"); });
            QVERIFY(it != original->nodes.end());
            const auto& t = single->trials[i];
            QCOMPARE(q(t.answer), q(it->result.answer));
            QCOMPARE(t.replayedCalls, t.calls);
            correct += t.correct.value_or(false) ? 1 : 0;
        }
        QCOMPARE(single->summary.designs.front().overall.correct, int64_t(correct));
        QCOMPARE(q(single->provenance.text()), QString("replayed (100 % of calls)"));

        // (d) A model nobody recorded: failed with its name, or simulated.
        const std::vector<std::pair<std::string, std::string>> withCode{
            kThree.front(), {"e_code", "local/code-13b"}, kThree.back()};
        ExperimentRunner failing(m_h.engine(), sink,
                                 specOf("code fails", teamOf(voteTeam(recorded(measure.id()), withCode)), {1}), {});
        QCOMPARE(q(failing.run().error), QString());
        const auto failed = measuredReport(store, failing.id());
        QVERIFY(failed);
        const auto firstRun = reader->load(failed->trials.front().runId, false, error);
        QVERIFY2(firstRun, error.c_str());
        const auto code = std::find_if(firstRun->nodes.begin(), firstRun->nodes.end(),
                                       [](const StoredNode& n) { return n.node == NodeId("e_code"); });
        QVERIFY(code != firstRun->nodes.end());
        QCOMPARE(q(code->result.error),
                 "recorded backend \"b\": no call like it was recorded on this input (model \"local/code-13b\", draw "
                 "\"expert:0\", in experiment " +
                     q(measure.id()) + ")");
        QCOMPARE(q(failed->provenance.text()), QString("replayed (100 % of calls)"));

        auto simulating = recorded(measure.id(), "simulate");
        simulating["seed"] = 42;
        ExperimentRunner mixed(m_h.engine(), sink,
                               specOf("code simulated", teamOf(voteTeam(simulating, withCode)), {1}), {});
        QCOMPARE(q(mixed.run().error), QString());
        const auto mix = measuredReport(store, mixed.id());
        QVERIFY(mix);
        int replayedCalls = 0;
        int allCalls = 0;
        for (const auto& t : mix->trials) {
            replayedCalls += t.replayedCalls;
            allCalls += t.calls;
            QVERIFY(t.replayedCalls >= 2 && t.replayedCalls < t.calls);
            const auto run = reader->load(t.runId, false, error);
            QVERIFY2(run, error.c_str());
            for (const auto& s : run->spans) {
                if (s.kind == SpanKind::Attempt)
                    QCOMPARE(ReplayNote::marks(s.note), s.node != NodeId("e_code"));
            }
        }
        QCOMPARE(q(mix->provenance.text()), QString("simulated"));
        CallSources counted = callSources(mix->spec.designs.front().team, [&] {
            std::vector<const TrialRecord*> all;
            for (const auto& t : mix->trials)
                all.push_back(&t);
            return all;
        }());
        QCOMPARE(counted.replayed, int64_t(replayedCalls));
        QCOMPARE(counted.simulated, int64_t(allCalls - replayedCalls));
        QCOMPARE(counted.measured, int64_t(0));
    }

    // With a judge: its runs are stored with the trials, and a judge on a recorded backend
    // replays their verdicts.
    void aJudgesVerdictsReplay()
    {
        QTemporaryDir dir;
        const auto path = [&](const std::string& name) { return dir.filePath(q(name)).toStdString(); };
        auto opened = RunStore::open(path("runs.sqlite"));
        QVERIFY(opened.store);
        auto& store = *opened.store;
        m_h.engine().setStore(path("runs.sqlite"));
        std::ofstream(path("free.jsonl")) << R"({"id": "w1", "prompt": "Write a haiku about the sea."})"
                                          << "\n"
                                          << R"({"id": "w2", "prompt": "Describe a quiet morning."})"
                                          << "\n";
        // One expert on model NAME, simulated with skill SKILL, or replayed from EXPERIMENT.
        const auto oneModelTeam = [&](const std::string& name, double skill, const std::string& experiment) {
            json backend = experiment.empty() ? json{{"kind", "local-moe"}} : recorded(experiment);
            if (experiment.empty()) {
                json skills = json::object();
                for (const char* domain : {"general", "writing", "reasoning", "math", "code", "facts"})
                    skills[domain] = skill;
                backend["models"][name] = {{"skills", skills}, {"price_per_mtok", {{"input", 1}, {"output", 1}}}};
            }
            json doc{{"conclave", 1}, {"name", name}, {"backends", {{"b", backend}}}};
            doc["defaults"] = {{"backend", "b"}, {"model", name}};
            doc["nodes"] = json::array({{{"id", "in"}, {"kind", "input"}},
                                        {{"id", "e"}, {"kind", "expert"}},
                                        {{"id", "out"}, {"kind", "output"}}});
            doc["edges"] = json::array({{{"from", "in"}, {"to", "e"}}, {{"from", "e"}, {"to", "out"}}});
            const auto file = path(name + (experiment.empty() ? "" : "-replayed") + ".team.json");
            std::ofstream(file) << doc.dump(1);
            return file;
        };
        StoredTrials sink(store, StoredTrials::Keep::Runs);
        const auto evaluate = [&](const std::string& experiment) {
            EvalRequest request;
            request.designFiles = {oneModelTeam("sure", 1, experiment), oneModelTeam("unsure", 0.5, experiment)};
            request.taskset = path("free.jsonl");
            request.seeds = {1, 2, 3};
            request.judgeFile = oneModelTeam("oracle", 0.6, experiment);
            auto setup = ExperimentSetup::build(request, CONCLAVE_RESOURCES);
            if (!setup.spec) {
                qWarning("%s", setup.errors.empty() ? "no spec" : setup.errors.front().c_str());
                return std::string();
            }
            ExperimentRunner runner(m_h.engine(), sink, *setup.spec, {});
            const auto outcome = runner.run();
            if (!outcome.error.empty())
                qWarning("%s", outcome.error.c_str());
            return runner.id();
        };
        const auto measuredId = evaluate("");
        QVERIFY(!measuredId.empty());
        const auto measured = measuredReport(store, measuredId);
        QVERIFY(measured);
        QCOMPARE(measured->trials.size(), size_t(12));
        const auto replayedId = evaluate(measuredId);
        QVERIFY(!replayedId.empty());
        const auto replayed = measuredReport(store, replayedId);
        QVERIFY(replayed);
        QCOMPARE(replayed->trials.size(), size_t(12));
        std::string error;
        auto reader = store.reader(error);
        std::set<std::string> verdicts;
        for (size_t i = 0; i < 12; ++i) {
            const auto& m = measured->trials[i];
            const auto& r = replayed->trials[i];
            QVERIFY(!m.judgeRunId.empty());
            QCOMPARE(q(r.scoreDetail), q(m.scoreDetail));
            QVERIFY(r.correct == m.correct);
            QCOMPARE(r.judgeCostUsd, m.judgeCostUsd);
            verdicts.insert(m.scoreDetail);
            const auto judged = reader->load(r.judgeRunId, false, error);
            QVERIFY2(judged, error.c_str());
            // Each judge call replays a judge call of the same seed on the same input (that of this
            // trial's judge, or of another design's that gave the same response).
            for (const auto& span : judged->spans) {
                if (span.kind != SpanKind::Attempt)
                    continue;
                QVERIFY(ReplayNote::marks(span.note));
                const auto from = span.note.substr(std::string("replayed: run ").size());
                const auto source = reader->load(RunId(from.substr(0, from.find(' '))), false, error);
                QVERIFY2(source, error.c_str());
                QCOMPARE(q(source->summary.input), q(judged->summary.input));
                QCOMPARE(source->summary.seed, judged->summary.seed);
                QCOMPARE(q(source->summary.experimentId), q(measuredId));
            }
        }
        // An oracle of skill 0.6 errs now and then: both verdicts were replayed.
        QCOMPARE(verdicts, (std::set<std::string>{"judge: correct", "judge: incorrect"}));
        QCOMPARE(q(measured->judge->text()), QString("simulated"));
        QCOMPARE(q(replayed->judge->text()), QString("replayed (100 % of calls)"));
        // A judge's run is its trial's: resuming or finishing keeps it.
        QCOMPARE(store.removeUntriedRuns(measuredId).count, 0);
    }

    // Leave one design out: an experiment of two designs, "vote" (math, facts and generalist experts) and
    // "code" (one code expert); a team of a math and a code expert on a recorded backend that excludes
    // "code" replays its math calls from the vote's trials and has no code call to replay.
    void aDesignLeftOutReplaysNoneOfItsCalls()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite").toStdString();
        auto opened = RunStore::open(db);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        m_h.engine().setStore(db);
        StoredTrials sink(store, StoredTrials::Keep::Runs);
        const std::pair<std::string, std::string> code{"e_code", "local/code-13b"};
        ExperimentRunner measure(m_h.engine(), sink,
                                 specOf("two designs",
                                        {{"vote", teamOf(voteTeam(local(), kThree))},
                                         {"code", teamOf(voteTeam(local(), {code}))}},
                                        {1}),
                                 {});
        QCOMPARE(q(measure.run().error), QString());
        const auto measured = measuredReport(store, measure.id());
        QVERIFY(measured);
        QCOMPARE(measured->trials.size(), size_t(50));
        std::string error;
        auto reader = store.reader(error);
        QVERIFY2(reader, error.c_str());
        // What each design called: the attempts on each model, and the runs of each design.
        std::map<std::string, int> voteAttempts, codeAttempts; // by model
        std::map<std::string, int> designOfRun;
        for (const auto& t : measured->trials) {
            designOfRun[t.runId.str()] = t.design;
            const auto run = reader->load(t.runId, false, error);
            QVERIFY2(run, error.c_str());
            for (const auto& s : run->spans) {
                if (s.kind == SpanKind::Attempt)
                    ++(t.design == 0 ? voteAttempts : codeAttempts)[s.model];
            }
        }
        QCOMPARE(voteAttempts.count("local/code-13b"), size_t(0));
        QVERIFY(voteAttempts["local/math-13b"] >= 25);
        QVERIFY(codeAttempts["local/code-13b"] >= 25);

        const std::vector<std::pair<std::string, std::string>> mathAndCode{kThree.front(), code};
        ExperimentRunner predict(
            m_h.engine(), sink,
            specOf("without code", teamOf(voteTeam(leavingOut(recorded(measure.id()), {"code"}), mathAndCode)), {1}),
            {});
        QCOMPARE(q(predict.run().error), QString());
        const auto predicted = measuredReport(store, predict.id());
        QVERIFY(predicted);
        QCOMPARE(predicted->trials.size(), size_t(25));
        int replayedMath = 0;
        for (const auto& t : predicted->trials) {
            const auto run = reader->load(t.runId, false, error);
            QVERIFY2(run, error.c_str());
            int replayed = 0;
            for (const auto& s : run->spans) {
                if (s.kind != SpanKind::Attempt)
                    continue;
                // The math calls are the vote's; no code call was there to replay.
                QCOMPARE(ReplayNote::marks(s.note), s.model == "local/math-13b");
                if (s.model == "local/math-13b") {
                    QCOMPARE(designOfRun.at(replayedRun(s).str()), 0);
                    ++replayed;
                }
            }
            QCOMPARE(t.replayedCalls, replayed);
            replayedMath += replayed;
            const auto node = std::find_if(run->nodes.begin(), run->nodes.end(),
                                           [](const StoredNode& n) { return n.node == NodeId("e_code"); });
            QVERIFY(node != run->nodes.end());
            QCOMPARE(q(node->result.error),
                     "recorded backend \"b\": no call like it was recorded on this input (model \"local/code-13b\", "
                     "draw \"expert:0\", in experiment " +
                         q(measure.id()) + " without design \"code\")");
        }
        QCOMPARE(replayedMath, voteAttempts["local/math-13b"]);

        // The same team leaving nothing out (read after the first: the library keeps the two apart)
        // replays the code design's calls too.
        ExperimentRunner whole(m_h.engine(), sink,
                               specOf("with code", teamOf(voteTeam(recorded(measure.id()), mathAndCode)), {1}), {});
        QCOMPARE(q(whole.run().error), QString());
        const auto all = measuredReport(store, whole.id());
        QVERIFY(all);
        int replayedAll = 0;
        for (const auto& t : all->trials) {
            QCOMPARE(t.replayedCalls, t.calls);
            replayedAll += t.replayedCalls;
        }
        QCOMPARE(replayedAll, voteAttempts["local/math-13b"] + codeAttempts["local/code-13b"]);
        QVERIFY(whole.id() != predict.id());

        // A name that is no design of the experiments listed stops the team from preparing, naming them all.
        json unknown = leavingOut(recorded(measure.id()), {"vote", "cascade"});
        unknown["experiments"].push_back(predict.id());
        const auto refused = m_h.engine().prepare(teamOf(voteTeam(unknown, mathAndCode)));
        QVERIFY(!refused.team);
        QCOMPARE(q(refused.error), "backend \"b\": no design \"cascade\" in experiments " + q(measure.id()) + ", " +
                                       q(predict.id()));
        // A design of the second experiment is one of theirs.
        json known = leavingOut(recorded(measure.id()), {"without code"});
        known["experiments"].push_back(predict.id());
        QVERIFY(m_h.engine().prepare(teamOf(voteTeam(known, mathAndCode))).team);
    }

private:
    static std::optional<ExperimentReport> measuredReport(RunStore& store, const std::string& id)
    {
        store.flush();
        std::string error;
        auto reader = store.reader(error);
        auto report = reader ? ExperimentReport::load(*reader, id, error) : std::nullopt;
        if (!report)
            qWarning("%s", error.c_str());
        return report;
    }
};

QTEST_GUILESS_MAIN(TestExperimentReplay)
#include "tst_experimentreplay.moc"
