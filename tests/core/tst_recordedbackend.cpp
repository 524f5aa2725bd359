// The recorded backend (core/conclave/replay) alone, on a virtual clock, over
// recordings made by hand: attempts replay in order; a missing call fails
// with its name; the same seed is preferred, else a hash of seed and call
// picks; max_concurrency queues calls on the run's clock; and what the
// validator says of a recorded backend block. Through experiments and a
// store: tst_experimentreplay.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/replay/ExperimentRecordings.h"
#include "conclave/replay/RecordedBackend.h"
#include "conclave/replay/ReplayNote.h"
#include "conclave/validate/Validator.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>

using namespace conclave;
using namespace enginetest;

namespace {

// A team of one expert on `model`, calling backend "b".
json oneExpertTeam(const json& backend, const std::string& model)
{
    json doc{{"conclave", 1}, {"name", "one"}, {"backends", {{"b", backend}}}};
    doc["defaults"] = {{"backend", "b"}, {"retries", 2}};
    doc["nodes"] = json::array({{{"id", "in"}, {"kind", "input"}},
                                {{"id", "e"}, {"kind", "expert"}, {"model", model}},
                                {{"id", "out"}, {"kind", "output"}}});
    doc["edges"] = json::array({{{"from", "in"}, {"to", "e"}}, {{"from", "e"}, {"to", "out"}}});
    return doc;
}

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
            std::make_shared<RecordedBackend>(source, clock, RecordedBackend::Settings{"rec", seed, maxConcurrency, {}, {}, {}, 1.0});
    }
};

} // namespace

class TestRecordedBackend : public QObject {
    Q_OBJECT

private slots:
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
        QTest::newRow("no designs left out") << R"({"kind": "recorded", "experiments": ["e-1"], "exclude_designs": []})"
                                             << "/backends/b/exclude_designs: expected at least one design name";
        QTest::newRow("an empty design") << R"({"kind": "recorded", "experiments": ["e-1"], "exclude_designs": ["vote", ""]})"
                                         << "/backends/b/exclude_designs/1: expected a design name, got \"\"";
        QTest::newRow("a design twice")
            << R"({"kind": "recorded", "experiments": ["e-1"], "exclude_designs": ["vote", "solo", "vote"]})"
            << "/backends/b/exclude_designs/2: \"vote\" is listed twice";
        QTest::newRow("fine") << R"({"kind": "recorded", "experiments": ["e-1"], "on_missing": "simulate", "seed": 3})"
                              << "";
        QTest::newRow("fine, leaving designs out")
            << R"({"kind": "recorded", "experiments": ["e-1", "e-2"], "exclude_designs": ["vote", "solo"]})" << "";
    }
    void theValidatorSaysWhatARecordedBackendNeeds()
    {
        QFETCH(QString, backend);
        QFETCH(QString, problems);
        auto loaded = teamFromJson(oneExpertTeam(json::parse(backend.toStdString()), "m/a"));
        QVERIFY(loaded.team);
        QStringList said;
        for (const auto& p : validate(*loaded.team, {}))
            said << q(p.pointer + ": " + p.message);
        QCOMPARE(said.join("\n"), problems);
        // The team needs format 3, and writes back as it was read.
        QCOMPARE(formatVersionNeeded(*loaded.team), int64_t(3));
        QVERIFY(teamFromJson(json::parse(teamToJsonText(*loaded.team))).team == loaded.team);
    }

    // exclude_designs is read as a list of names, and written back in its place among the recorded fields.
    void excludeDesignsReadsAsAListOfNames_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("problems");
        QTest::newRow("one name") << R"({"kind": "recorded", "experiments": ["e-1"], "exclude_designs": "vote"})"
                                  << "/backends/b/exclude_designs: expected an array of design names, got \"vote\"";
        QTest::newRow("a number") << R"({"kind": "recorded", "experiments": ["e-1"], "exclude_designs": ["vote", 3]})"
                                  << "/backends/b/exclude_designs/1: expected a design name, got 3";
    }
    void excludeDesignsReadsAsAListOfNames()
    {
        QFETCH(QString, backend);
        QFETCH(QString, problems);
        auto loaded = teamFromJson(oneExpertTeam(json::parse(backend.toStdString()), "m/a"));
        QVERIFY(!loaded.team);
        QStringList said;
        for (const auto& p : loaded.problems)
            said << q(p.pointer + ": " + p.message);
        QCOMPARE(said.join("\n"), problems);
    }

    void excludeDesignsRoundTripsInPlace()
    {
        const json block{{"kind", "recorded"},
                         {"on_missing", "simulate"},
                         {"exclude_designs", {"vote", "triage (triage.team.json)"}},
                         {"db", "lab.sqlite"},
                         {"experiments", {"e-1"}}};
        auto loaded = teamFromJson(oneExpertTeam(block, "m/a"));
        QVERIFY(loaded.team);
        const auto& b = loaded.team->backends.at(BackendName("b"));
        QVERIFY(b.excludeDesigns == (std::vector<std::string>{"vote", "triage (triage.team.json)"}));
        QVERIFY(b.extra.is_null());
        QCOMPARE(q(teamToJson(*loaded.team).at("backends").at("b").dump()),
                 QString("{\"kind\":\"recorded\",\"experiments\":[\"e-1\"],\"db\":\"lab.sqlite\",\"exclude_designs\":"
                         "[\"vote\",\"triage (triage.team.json)\"],\"on_missing\":\"simulate\"}"));
        QVERIFY(teamFromJson(json::parse(teamToJsonText(*loaded.team))).team == loaded.team);
    }

    // On another kind it does nothing: the validator says so, and the field is kept as written.
    void excludeDesignsOnAnotherKindIsAWarningAndKept()
    {
        const auto block = json::parse(R"({"kind": "local-moe", "seed": 1, "exclude_designs": ["vote"]})");
        auto loaded = teamFromJson(oneExpertTeam(block, "local/math-13b"));
        QVERIFY(loaded.team);
        QStringList said;
        for (const auto& p : validate(*loaded.team, {}))
            said << q(std::string(p.isError() ? "error " : "warning ") + p.pointer + ": " + p.message);
        QCOMPARE(said.join("\n"), QString("warning /backends/b/exclude_designs: only a recorded backend replays designs"));
        const auto written = json::parse(teamToJsonText(*loaded.team));
        QCOMPARE(q(written.at("backends").at("b").at("exclude_designs").dump()), QString("[\"vote\"]"));
        QVERIFY(teamFromJson(written).team == loaded.team);
    }
};

QTEST_GUILESS_MAIN(TestRecordedBackend)
#include "tst_recordedbackend.moc"
