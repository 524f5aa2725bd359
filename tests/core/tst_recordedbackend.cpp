// The recorded backend (core/conclave/replay): a measured design replayed on
// its own tasks reproduces it exactly; another design is evaluated from the
// same recordings; attempts replay in order; a missing call fails or is
// simulated; the same seed is preferred, else a hash of seed and call picks;
// max_concurrency queues calls on the run's clock.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/experiment/ExperimentReport.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/replay/ExperimentRecordings.h"
#include "conclave/replay/RecordedBackend.h"
#include "conclave/replay/ReplayNote.h"
#include "conclave/store/RunStore.h"
#include "conclave/validate/Validator.h"

#include <QTemporaryDir>

#include <condition_variable>
#include <fstream>
#include <map>
#include <mutex>
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

Team teamOf(const json& doc)
{
    auto loaded = teamFromJson(doc);
    for (const auto& p : loaded.problems)
        qWarning("%s", p.message.c_str());
    return *loaded.team;
}

ExperimentSpec specOf(const std::string& name, const Team& team, std::vector<uint64_t> seeds)
{
    ExperimentSpec spec;
    spec.name = name;
    spec.designs.push_back(makeDesign(name, name + ".team.json", team));
    auto tasks = TaskSet::load(std::string(CONCLAVE_RESOURCES) + "/tasksets/mixed-small.jsonl");
    spec.tasksetName = "mixed-small";
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = std::move(seeds);
    return spec;
}

// ---- the backend alone, on a virtual clock, over recordings made by hand ----

StoredAttempt attempt(const std::string& run, uint64_t seed, const std::string& model, const std::string& draw,
                      SpanId span, int number, Status status, int64_t startUs, int64_t endUs, int64_t waitUs = 0,
                      int64_t ttftUs = -1, std::optional<std::string> text = std::nullopt)
{
    StoredAttempt a;
    a.experimentId = "e-1";
    a.runId = RunId(run);
    a.input = "Q";
    a.seed = seed;
    a.span.id = span;
    a.span.kind = SpanKind::Attempt;
    a.span.node = NodeId("e");
    a.span.model = model;
    a.span.draw = draw;
    a.span.attempt = number;
    a.span.status = status;
    a.span.startUs = startUs;
    a.span.endUs = endUs;
    a.span.waitUs = waitUs;
    a.span.ttftUs = ttftUs;
    a.span.tokensIn = 10;
    a.span.tokensOut = 5;
    a.span.costUsd = 0.25;
    a.span.error = status == Status::Failed ? "server error (503)" : "";
    if (status == Status::Ok && !text)
        text = "Answer: " + run;
    a.text = status == Status::Ok ? text : std::nullopt;
    return a;
}

ModelRequest request(const std::string& model, const std::string& draw, int number = 1)
{
    ModelRequest r;
    r.model = model;
    r.runInput = "Q";
    r.salt = "e";
    r.draw = draw;
    r.attempt = number;
    return r;
}

// What the backend delivered, with the virtual time of each event.
struct Heard {
    std::mutex mutex;
    std::condition_variable changed;
    std::map<std::string, std::pair<int64_t, ModelReply>> replies;
    std::map<std::string, int64_t> tokens;

    CallCallbacks callbacks(const std::string& name, RunClock& clock)
    {
        return {[this, name, &clock](std::string_view) {
                    std::lock_guard lock(mutex);
                    tokens[name] = clock.nowUs();
                },
                [this, name, &clock](ModelReply reply) {
                    std::lock_guard lock(mutex);
                    replies[name] = {clock.nowUs(), std::move(reply)};
                    changed.notify_all();
                }};
    }
    bool waitFor(size_t count)
    {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, 10s, [&] { return replies.size() >= count; });
    }
};

struct Bench {
    ThreadPool pool{2};
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(pool);
    std::shared_ptr<RecordedBackend> backend;

    Bench(std::vector<StoredAttempt> attempts, uint64_t seed, int64_t maxConcurrency = 0)
    {
        auto source =
            std::make_shared<const ExperimentRecordings>(std::vector<std::string>{"e-1"}, std::move(attempts));
        backend =
            std::make_shared<RecordedBackend>(source, clock, RecordedBackend::Settings{"rec", seed, maxConcurrency});
    }
};

} // namespace

class TestRecordedBackend : public QObject {
    Q_OBJECT

    EngineHarness m_h;

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }

    // (c) A recorded failure fails attempt 1 (retryable: the recording retried), the retry gets
    // attempt 2's reply; a third attempt was never recorded.
    void attemptsReplayInOrder()
    {
        Bench b({attempt("r1", 1, "m/a", "expert:0", 3, 1, Status::Failed, 0, 50000),
                 attempt("r1", 1, "m/a", "expert:0", 4, 2, Status::Ok, 300000, 500000, 0, 100000)},
                1);
        Heard heard;
        {
            RunClock::Hold hold(*b.clock);
            b.backend->start(request("m/a", "expert:0", 1), heard.callbacks("1", *b.clock));
        }
        QVERIFY(heard.waitFor(1));
        {
            RunClock::Hold hold(*b.clock);
            b.backend->start(request("m/a", "expert:0", 2), heard.callbacks("2", *b.clock));
        }
        QVERIFY(heard.waitFor(2));
        {
            RunClock::Hold hold(*b.clock);
            b.backend->start(request("m/a", "expert:0", 3), heard.callbacks("3", *b.clock));
        }
        QVERIFY(heard.waitFor(3));
        std::lock_guard lock(heard.mutex);
        const auto& [at1, first] = heard.replies.at("1");
        QCOMPARE(at1, int64_t(50000));
        QVERIFY(!first.ok);
        QVERIFY(first.retryable);
        QCOMPARE(q(first.error), QString("server error (503)"));
        QCOMPARE(q(first.note), QString("replayed: run r1 span 3"));
        QCOMPARE(first.costUsd.value_or(-1), 0.25);
        const auto& [at2, second] = heard.replies.at("2");
        QCOMPARE(at2, int64_t(50000 + 200000));
        QCOMPARE(heard.tokens.at("2"), int64_t(50000 + 100000));
        QVERIFY(second.ok);
        QCOMPARE(q(second.text), QString("Answer: r1"));
        QCOMPARE(second.tokensIn, int64_t(10));
        QCOMPARE(second.tokensOut, int64_t(5));
        QCOMPARE(q(second.note), QString("replayed: run r1 span 4"));
        QCOMPARE(second.waitUs, int64_t(0));
        QCOMPARE(second.inflight, int64_t(1));
        const auto& [at3, third] = heard.replies.at("3");
        QCOMPARE(at3, int64_t(250000));
        QVERIFY(!third.ok);
        QVERIFY(!third.retryable);
        QCOMPARE(q(third.error), QString("recorded backend \"rec\": run r1 recorded 2 attempts of this call, not "
                                         "attempt 3 (model \"m/a\", draw \"expert:0\", in experiment e-1)"));
        QCOMPARE(q(third.note), QString());
    }

    // (d) A call nobody recorded fails at once, saying which; so does one whose reply was not kept.
    void aMissingCallFailsWithItsName()
    {
        auto attempts = std::vector<StoredAttempt>{attempt("r1", 1, "m/a", "expert:0", 9, 1, Status::Ok, 0, 1000)};
        attempts.front().text.reset(); // cut at the cap, or a store before schema 6
        Bench c(std::move(attempts), 1);
        Heard heard;
        {
            RunClock::Hold hold(*c.clock);
            c.backend->start(request("m/b", "expert:0"), heard.callbacks("other model", *c.clock));
            c.backend->start(request("m/a", "expert:1"), heard.callbacks("other draw", *c.clock));
            c.backend->start(request("m/a", "expert:0"), heard.callbacks("no reply", *c.clock));
        }
        QVERIFY(heard.waitFor(3));
        std::lock_guard lock(heard.mutex);
        QCOMPARE(q(heard.replies.at("other model").second.error),
                 QString("recorded backend \"rec\": no call like it was recorded on this input (model \"m/b\", "
                         "draw \"expert:0\", in experiment e-1)"));
        QCOMPARE(q(heard.replies.at("other draw").second.error),
                 QString("recorded backend \"rec\": no call like it was recorded on this input (model \"m/a\", "
                         "draw \"expert:1\", in experiment e-1)"));
        QCOMPARE(q(heard.replies.at("no reply").second.error),
                 QString("recorded backend \"rec\": the reply of run r1 span 9 was not recorded (model \"m/a\", "
                         "draw \"expert:0\", in experiment e-1)"));
        for (const auto& [name, reply] : heard.replies) {
            QCOMPARE(reply.first, int64_t(0));
            QVERIFY(!reply.second.ok);
            QVERIFY(!reply.second.retryable);
        }
    }

    // (e) The run recorded under the same seed answers; under another seed a hash of (seed, call) picks.
    void theSameSeedIsPreferredElseAHashPicks()
    {
        const std::vector<StoredAttempt> three{attempt("r1", 1, "m/a", "expert:0", 1, 1, Status::Ok, 0, 1000),
                                               attempt("r2", 2, "m/a", "expert:0", 1, 1, Status::Ok, 0, 2000),
                                               attempt("r3", 3, "m/a", "expert:0", 1, 1, Status::Ok, 0, 3000)};
        const ExperimentRecordings recordings({"e-1"}, three);
        const auto found = recordings.find(request("m/a", "expert:0"));
        QCOMPARE(found.size(), size_t(3));
        for (uint64_t seed = 1; seed <= 3; ++seed)
            QCOMPARE(q(RecordedBackend::choose(found, seed, request("m/a", "expert:0"))->run().str()),
                     "r" + QString::number(seed));
        std::set<std::string> picked;
        for (uint64_t seed = 4; seed < 40; ++seed) {
            const auto index = DeterministicRandom::key({"m/a", "Q", "expert:0"}, seed) % 3;
            const auto* chosen = RecordedBackend::choose(found, seed, request("m/a", "expert:0"));
            QCOMPARE(q(chosen->run().str()), "r" + QString::number(index + 1));
            picked.insert(chosen->run().str());
        }
        QCOMPARE(picked.size(), size_t(3)); // the hash spreads over every recording

        Bench b(three, 2);
        Heard heard;
        {
            RunClock::Hold hold(*b.clock);
            b.backend->start(request("m/a", "expert:0"), heard.callbacks("seed 2", *b.clock));
        }
        QVERIFY(heard.waitFor(1));
        std::lock_guard lock(heard.mutex);
        QCOMPARE(heard.replies.at("seed 2").first, int64_t(2000));
        QCOMPARE(q(heard.replies.at("seed 2").second.text), QString("Answer: r2"));
    }

    // (f) max_concurrency 2: the third call waits for the first to end; service times are the
    // recorded durations less the recorded waits.
    void maxConcurrencyQueuesCallsOnTheRunsClock()
    {
        Bench b({attempt("r1", 1, "m/a", "expert:0", 1, 1, Status::Ok, 0, 130000, 30000),
                 attempt("r1", 1, "m/b", "expert:0", 2, 1, Status::Ok, 0, 200000, 0),
                 attempt("r1", 1, "m/c", "expert:0", 3, 1, Status::Ok, 10000, 90000, 30000)},
                1, 2);
        Heard heard;
        {
            RunClock::Hold hold(*b.clock);
            b.backend->start(request("m/a", "expert:0"), heard.callbacks("a", *b.clock));
            b.backend->start(request("m/b", "expert:0"), heard.callbacks("b", *b.clock));
            b.backend->start(request("m/c", "expert:0"), heard.callbacks("c", *b.clock));
        }
        QVERIFY(heard.waitFor(3));
        std::lock_guard lock(heard.mutex);
        const auto summary = [&](const std::string& name) {
            const auto& [at, reply] = heard.replies.at(name);
            return QString("%1@%2 wait %3 inflight %4").arg(q(name)).arg(at).arg(reply.waitUs).arg(reply.inflight);
        };
        QCOMPARE(summary("a"), QString("a@100000 wait 0 inflight 1"));
        QCOMPARE(summary("b"), QString("b@200000 wait 0 inflight 2"));
        QCOMPARE(summary("c"), QString("c@150000 wait 100000 inflight 2"));
    }

    // A recorded timeout never answers: the replaying run's own timeout decides; cancel answers once.
    void aRecordedTimeoutWaitsUntilCancelled()
    {
        Bench b({attempt("r1", 1, "m/a", "expert:0", 1, 1, Status::Timeout, 0, 30000000)}, 1);
        Heard heard;
        CallId id = 0;
        {
            RunClock::Hold hold(*b.clock);
            id = b.backend->start(request("m/a", "expert:0"), heard.callbacks("t", *b.clock));
            b.clock->schedule(5000000, [&] { b.backend->cancel(id); });
        }
        QVERIFY(heard.waitFor(1));
        std::lock_guard lock(heard.mutex);
        QCOMPARE(heard.replies.at("t").first, int64_t(5000000));
        QVERIFY(heard.replies.at("t").second.cancelled);
    }

    void theValidatorSaysWhatARecordedBackendNeeds_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("problems");
        QTest::newRow("no experiments") << R"({"kind": "recorded"})"
                                        << "/backends/b/experiments: a recorded backend needs experiments: the ids "
                                           "of the experiments whose calls it replays";
        QTest::newRow("none listed") << R"({"kind": "recorded", "experiments": []})"
                                     << "/backends/b/experiments: expected at least one experiment id";
        QTest::newRow("an empty id") << R"({"kind": "recorded", "experiments": ["e-1", ""]})"
                                     << "/backends/b/experiments/1: expected an experiment id, got \"\"";
        QTest::newRow("unknown on_missing") << R"({"kind": "recorded", "experiments": ["e-1"], "on_missing": "guess"})"
                                            << "/backends/b/on_missing: expected fail or simulate, got \"guess\"";
        QTest::newRow("no queue") << R"({"kind": "recorded", "experiments": ["e-1"], "max_concurrency": 0})"
                                  << "/backends/b/max_concurrency: expected a positive integer, got 0";
        QTest::newRow("a time_scale") << R"({"kind": "recorded", "experiments": ["e-1"], "time_scale": 2})"
                                      << "/backends/b/time_scale: unknown key for a recorded backend; it is kept as is";
        QTest::newRow("fine") << R"({"kind": "recorded", "experiments": ["e-1"], "on_missing": "simulate", "seed": 3})"
                              << "";
    }
    void theValidatorSaysWhatARecordedBackendNeeds()
    {
        QFETCH(QString, backend);
        QFETCH(QString, problems);
        auto loaded = teamFromJson(voteTeam(json::parse(backend.toStdString()), {{"e", "m/a"}}));
        QVERIFY(loaded.team);
        QStringList said;
        for (const auto& p : validate(*loaded.team, {}))
            said << q(p.pointer + ": " + p.message);
        QCOMPARE(said.join("\n"), problems);
        // The team needs format 3, and writes back as it was read.
        QCOMPARE(formatVersionNeeded(*loaded.team), int64_t(3));
        QVERIFY(teamFromJson(json::parse(teamToJsonText(*loaded.team))).team == loaded.team);
    }

    // ---- through the engine and the experiment runner, from a store ----

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

QTEST_GUILESS_MAIN(TestRecordedBackend)
#include "tst_recordedbackend.moc"
