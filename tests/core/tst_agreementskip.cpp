// A synthesize aggregator's agreement skip (skip_when_agree, agree_fraction):
// where it skips its model and where it calls it, exactly, on the simulated
// clock — the result it settles with, its spans and note, and what the run
// store and `runs export` keep of it.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/RunInvariants.h"

#include "conclave/engine/Run.h"
#include "conclave/engine/RunPlan.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/export/RunExport.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

#include <QTemporaryDir>

using namespace enginetest;

namespace {

// One line per span, in id order: "node kind name[/model] start..end status", and the note when there is one.
QStringList spanLines(const RunResult& r)
{
    QStringList out;
    for (const auto& s : r.spans) {
        const auto name = s.model.empty() ? s.name : s.name + "/" + s.model;
        auto line = QStringLiteral("%1 %2 %3 %4..%5 %6")
                        .arg(q(s.node.str()), q(toString(s.kind)), q(name))
                        .arg(s.startUs)
                        .arg(s.endUs)
                        .arg(q(toString(s.status)));
        if (!s.note.empty())
            line += QStringLiteral(" [%1]").arg(q(s.note));
        out << line;
    }
    return out;
}

QString joined(const std::vector<std::string>& ids)
{
    QStringList out;
    for (const auto& id : ids)
        out << q(id);
    return out.join(QLatin1Char(','));
}

// in -> fan(all) -> experts (id, model), in that edge order -> syn (synthesize on "right", extra fields) -> out.
TeamBuilder panel(const std::vector<std::pair<std::string, std::string>>& experts, json synFields)
{
    TeamBuilder team;
    team.doc()["conclave"] = 2;
    team.node("fan", "router", json{{"strategy", "all"}}).edge("in", "fan");
    for (const auto& [id, model] : experts)
        team.expert(id, model).edge("fan", id);
    synFields["strategy"] = "synthesize";
    synFields["model"] = "right";
    team.node("syn", "aggregator", synFields);
    for (const auto& [id, model] : experts)
        team.edge(id, "syn");
    team.output("syn");
    return team;
}

const json kSkip{{"skip_when_agree", true}};

// A backend whose every call replies after a fixed time on the run's clock
// with a fixed text, by model: answers and confidences exactly as a test
// needs them. Replies and cancellations come as the clock's work, never on
// the caller's stack, once per call.
class TimedReplyBackend : public ModelBackend, public std::enable_shared_from_this<TimedReplyBackend> {
public:
    struct Reply {
        double ms = 100;
        std::string text; // empty: the call fails
    };

    TimedReplyBackend(std::shared_ptr<RunClock> clock, std::map<std::string, Reply> replies)
        : m_clock(std::move(clock)), m_replies(std::move(replies))
    {
    }

    CallId start(ModelRequest request, CallCallbacks callbacks) override
    {
        std::lock_guard lock(m_mutex);
        const CallId id = m_next++;
        m_models.push_back(request.model);
        const auto it = m_replies.find(request.model);
        const Reply reply = it == m_replies.end() ? Reply{1, {}} : it->second;
        auto& call = m_calls[id];
        call.callbacks = std::move(callbacks);
        call.timer =
            m_clock->schedule(m_clock->nowUs() + int64_t(reply.ms * 1000), [weak = weak_from_this(), id, reply] {
                if (const auto self = weak.lock())
                    self->deliver(id, reply);
            });
        return id;
    }

    void cancel(CallId id) override
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_calls.find(id);
        if (it == m_calls.end() || !m_clock->cancel(it->second.timer))
            return; // done already, or its reply is on the way
        auto done = std::move(it->second.callbacks.onDone);
        m_calls.erase(it);
        m_clock->post([done = std::move(done)] {
            ModelReply r;
            r.cancelled = true;
            r.error = "cancelled";
            done(std::move(r));
        });
    }

    double costOf(std::string_view, int64_t tokensIn, int64_t tokensOut) const override
    {
        return double(tokensIn + tokensOut) * 1e-6;
    }

    // The model of every call started, in order.
    std::vector<std::string> models() const
    {
        std::lock_guard lock(m_mutex);
        return m_models;
    }

private:
    struct Call {
        CallCallbacks callbacks;
        TimerId timer = 0;
    };

    void deliver(CallId id, const Reply& reply)
    {
        CallCallbacks callbacks;
        {
            std::lock_guard lock(m_mutex);
            const auto it = m_calls.find(id);
            if (it == m_calls.end())
                return;
            callbacks = std::move(it->second.callbacks);
            m_calls.erase(it);
        }
        ModelReply r;
        r.ok = !reply.text.empty();
        r.text = reply.text;
        r.error = r.ok ? "" : "the model failed";
        r.tokensIn = 10;
        r.tokensOut = 5;
        callbacks.onDone(std::move(r));
    }

    std::shared_ptr<RunClock> m_clock;
    const std::map<std::string, Reply> m_replies;
    mutable std::mutex m_mutex; // guards the three below
    std::map<CallId, Call> m_calls;
    std::vector<std::string> m_models;
    CallId m_next = 1;
};

// "Answer: 783\nConfidence: 0.50" after `ms`.
TimedReplyBackend::Reply says(const char* answer, double confidence, double ms)
{
    return {ms, "Answer: " + std::string(answer) + "\nConfidence: " + std::to_string(confidence)};
}

} // namespace

class TestAgreementSkip : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    ThreadPool m_pool{2};

    // A team whose every call goes to a TimedReplyBackend on a virtual clock;
    // `models` receives the model of each call.
    RunResult runTimed(const TeamBuilder& builder, std::map<std::string, TimedReplyBackend::Reply> replies,
                       std::vector<std::string>& models)
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team) {
            QTest::qFail(("the team does not load: " + problems).c_str(), __FILE__, __LINE__);
            return {};
        }
        std::string error;
        const auto plan = RunPlan::make(*team, error);
        if (!plan) {
            QTest::qFail(("no plan: " + error).c_str(), __FILE__, __LINE__);
            return {};
        }
        auto clock = std::make_shared<VirtualClock>(m_pool);
        auto backend = std::make_shared<TimedReplyBackend>(clock, std::move(replies));
        RunOptions options;
        options.input = kMath;
        invariants::EventLog log;
        options.observers = {&log};
        auto run = std::make_shared<Run>(
            plan, options, std::map<BackendName, std::shared_ptr<ModelBackend>>{{BackendName("local"), backend}},
            GateScorer{}, clock);
        run->start();
        if (!run->waitFor(10s)) {
            QTest::qFail("the run did not end", __FILE__, __LINE__);
            run->cancel();
        }
        auto result = run->wait();
        const auto broken = invariants::check(*plan, result, log);
        for (const auto& b : broken)
            qWarning("%s", b.c_str());
        if (!broken.empty())
            QTest::qFail("the run broke an invariant", __FILE__, __LINE__);
        models = backend->models();
        return result;
    }

    // The local backend's run on the simulated clock, checked against the invariants.
    RunResult runLocal(const TeamBuilder& builder)
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team) {
            QTest::qFail(("the team does not load: " + problems).c_str(), __FILE__, __LINE__);
            return {};
        }
        invariants::EventLog log;
        auto result = m_h.run(*team, kMath, Engine::StartOptions{42, {&log}, ClockRequest::Virtual, {}, {}});
        std::string error;
        const auto plan = RunPlan::make(*team, error);
        for (const auto& b : invariants::check(*plan, result, log)) {
            qWarning("%s", b.c_str());
            QTest::qFail("the run broke an invariant", __FILE__, __LINE__);
        }
        return result;
    }

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }
    void cleanupTestCase() { m_h.reset(); }

    // The whole run, span by span: the synthesize settles the moment the
    // second input agrees, with no attempt of its own.
    void twoOfTwoAgreeAndTheModelIsSkipped()
    {
        const auto r = runLocal(panel({{"a", "right-100"}, {"b", "right-300"}}, kSkip));
        QCOMPARE(q(toString(r.status)), QString("ok"));
        QCOMPARE(spanLines(r), (QStringList{
                                   "in node in 0..0 ok",
                                   "fan node fan 0..0 ok",
                                   "a node a 0..100000 ok",
                                   "a attempt attempt 1/right-100 0..100000 ok",
                                   "b node b 0..300000 ok",
                                   "b attempt attempt 1/right-300 0..300000 ok",
                                   "syn node syn 300000..300000 ok [skipped_model: agreement (a, b agree on \"783\", "
                                   "2 of 2 ok inputs)]",
                                   "out node out 300000..300000 ok",
                               }));
        const auto a = resultOf(r, "a");
        const auto b = resultOf(r, "b");
        const auto syn = resultOf(r, "syn");
        QCOMPARE(q(toString(syn.status)), QString("ok"));
        QCOMPARE(q(syn.answer), QString("783"));
        QCOMPARE(q(syn.text), q(a.text));
        QCOMPARE(syn.confidence, (a.confidence + b.confidence) / 2);
        QCOMPARE(syn.tokensIn, int64_t(0));
        QCOMPARE(syn.tokensOut, int64_t(0));
        QCOMPARE(syn.costUsd, 0.0);
        QCOMPARE(q(syn.skippedModel), QString("agreement"));
        QCOMPARE(joined(syn.agreed), QString("a,b"));
        QCOMPARE(q(r.output.answer), QString("783"));
        QCOMPARE(r.calls, 2);
        QCOMPARE(r.wallUs, int64_t(300000));
        QCOMPARE(r.costUsd, a.costUsd + b.costUsd);
    }

    // `agreed` is what happened (b answered first); the text is the first
    // agreeing input's in edge order (a's), as every vote's conclusion is.
    void agreedFollowsArrivalTheTextEdgeOrder()
    {
        const auto r = runLocal(panel({{"a", "right-300"}, {"b", "right-100"}}, kSkip));
        const auto syn = resultOf(r, "syn");
        QCOMPARE(joined(syn.agreed), QString("b,a"));
        QCOMPARE(q(syn.text), q(resultOf(r, "a").text));
        QCOMPARE(q(nodeSpan(r, "syn").note),
                 QString("skipped_model: agreement (b, a agree on \"783\", 2 of 2 ok inputs)"));
    }

    // Every case where the rule does not hold: the model is called as before,
    // its attempt starts when the wait ends, and nothing says it was skipped.
    void theModelIsCalled_data()
    {
        QTest::addColumn<QStringList>("experts"); // "id=model", in edge order
        QTest::addColumn<QByteArray>("fields");
        QTest::addColumn<QString>("synSpans"); // the synthesize's node span and its one attempt

        const QString after300 = "syn node syn 300000..450000 ok|syn attempt attempt 1/right 300000..450000 ok";
        QTest::newRow("one input only")
            << QStringList{"a=right-100"} << QByteArray(R"({"skip_when_agree": true})")
            << "syn node syn 100000..250000 ok|syn attempt attempt 1/right 100000..250000 ok";
        QTest::newRow("the inputs disagree")
            << QStringList{"a=right-100", "b=wrong-300"} << QByteArray(R"({"skip_when_agree": true})") << after300;
        QTest::newRow("2 of 3 agree, agree_fraction 0.7 (2/3 = 0.667)")
            << QStringList{"a=right-100", "b=wrong-100", "c=right-300"}
            << QByteArray(R"({"skip_when_agree": true, "agree_fraction": 0.7})") << after300;
        QTest::newRow("2 of 3 agree, agree_fraction left at 1")
            << QStringList{"a=right-100", "b=wrong-100", "c=right-300"} << QByteArray(R"({"skip_when_agree": true})")
            << after300;
        QTest::newRow("skip_when_agree false")
            << QStringList{"a=right-100", "b=right-300"}
            << QByteArray(R"({"skip_when_agree": false, "agree_fraction": 0.5})") << after300;
        QTest::newRow("skip_when_agree left out")
            << QStringList{"a=right-100", "b=right-300"} << QByteArray("{}") << after300;
        QTest::newRow("one agrees, the other failed")
            << QStringList{"a=right-100", "b=flaky"} << QByteArray(R"({"skip_when_agree": true})")
            << "syn node syn 100000..250000 ok|syn attempt attempt 1/right 100000..250000 ok";
    }

    void theModelIsCalled()
    {
        QFETCH(QStringList, experts);
        QFETCH(QByteArray, fields);
        QFETCH(QString, synSpans);
        std::vector<std::pair<std::string, std::string>> list;
        for (const auto& e : experts)
            list.emplace_back(e.section('=', 0, 0).toStdString(), e.section('=', 1).toStdString());
        const auto r = runLocal(panel(list, json::parse(fields.toStdString())));
        QStringList spans;
        for (const auto& line : spanLines(r)) {
            if (line.startsWith("syn "))
                spans << line;
        }
        QCOMPARE(spans.join('|'), synSpans);
        const auto syn = resultOf(r, "syn");
        QCOMPARE(q(toString(syn.status)), QString("ok"));
        QCOMPARE(q(syn.skippedModel), QString());
        QCOMPARE(joined(syn.agreed), QString());
        QVERIFY(syn.tokensOut > 0);
        QCOMPARE(syn.costUsd, firstAttempt(r, "syn").costUsd);
        QVERIFY(syn.costUsd > 0);
    }

    // The exact boundaries of agree_fraction and min_confidence, with answers
    // and confidences as scripted: skipped, or the model ("judge") called.
    void theBoundaries_data()
    {
        QTest::addColumn<QStringList>("replies"); // "answer@confidence/ms" of e1, e2, ...; "fail/ms" fails
        QTest::addColumn<QByteArray>("fields");
        QTest::addColumn<QString>("calls");     // the models called, in order
        QTest::addColumn<QString>("agreed");    // empty: the model was called
        QTest::addColumn<double>("confidence"); // the synthesize's
        QTest::addColumn<QString>("synSpans");

        const QString judged = "syn node syn 300000..800000 ok|syn attempt attempt 1/judge 300000..800000 ok";
        QTest::newRow("2 of 2") << QStringList{"783@0.9/100", "783@0.7/300"}
                                << QByteArray(R"({"skip_when_agree": true})") << "e1,e2"
                                << "e1,e2" << 0.8
                                << "syn node syn 300000..300000 ok [skipped_model: agreement (e1, e2 agree on \"783\", "
                                   "2 of 2 ok inputs)]";
        QTest::newRow("2 of 3 at agree_fraction 0.6")
            << QStringList{"783@0.9/100", "5@0.5/200", "783@0.7/300"}
            << QByteArray(R"({"skip_when_agree": true, "agree_fraction": 0.6})") << "e1,e2,e3"
            << "e1,e3" << 0.8
            << "syn node syn 300000..300000 ok [skipped_model: agreement (e1, e3 agree on \"783\", 2 of 3 ok inputs)]";
        QTest::newRow("2 of 3 at agree_fraction 0.7")
            << QStringList{"783@0.9/100", "5@0.5/200", "783@0.7/300"}
            << QByteArray(R"({"skip_when_agree": true, "agree_fraction": 0.7})") << "e1,e2,e3,judge"
            << "" << 0.4 << judged;
        QTest::newRow("mean confidence 0.5 < min_confidence 0.6")
            << QStringList{"783@0.5/100", "783@0.5/300"}
            << QByteArray(R"({"skip_when_agree": true, "min_confidence": 0.6})") << "e1,e2,judge"
            << "" << 0.4 << judged;
        QTest::newRow("mean confidence 0.75 = min_confidence 0.75")
            << QStringList{"783@0.5/100", "783@1/300"}
            << QByteArray(R"({"skip_when_agree": true, "min_confidence": 0.75})") << "e1,e2"
            << "e1,e2" << 0.75
            << "syn node syn 300000..300000 ok [skipped_model: agreement (e1, e2 agree on \"783\", "
               "2 of 2 ok inputs)]";
        QTest::newRow("mean confidence 0.75 < min_confidence 0.76, though e2 alone is surer")
            << QStringList{"783@0.5/100", "783@1/300"}
            << QByteArray(R"({"skip_when_agree": true, "min_confidence": 0.76})") << "e1,e2,judge"
            << "" << 0.4 << judged;
        QTest::newRow("a failed input does not count")
            << QStringList{"783@0.9/100", "fail/200", "783@0.7/300"} << QByteArray(R"({"skip_when_agree": true})")
            << "e1,e2,e3"
            << "e1,e3" << 0.8
            << "syn node syn 300000..300000 ok [skipped_model: agreement (e1, e3 agree on \"783\", 2 of 2 ok inputs)]";
        QTest::newRow("nor does it make one input two")
            << QStringList{"783@0.9/100", "fail/300"} << QByteArray(R"({"skip_when_agree": true})") << "e1,e2,judge"
            << "" << 0.4 << judged;
        QTest::newRow("quorum 2 ends the wait, then the skip")
            << QStringList{"783@0.9/100", "783@0.7/300", "783@0.8/1000"}
            << QByteArray(R"({"skip_when_agree": true, "quorum": 2})") << "e1,e2,e3"
            << "e1,e2" << 0.8
            << "syn node syn 300000..300000 ok [skipped_model: agreement (e1, e2 agree on \"783\", 2 of 2 ok inputs)]";
        QTest::newRow("deadline_ms ends the wait, then the skip")
            << QStringList{"783@0.9/100", "783@0.7/300", "5@0.8/1000"}
            << QByteArray(R"({"skip_when_agree": true, "deadline_ms": 250})") << "e1,e2,e3"
            << "e1,e2" << 0.8
            << "syn node syn 350000..350000 ok [skipped_model: agreement (e1, e2 agree on \"783\", 2 of 2 ok inputs)]";
    }

    void theBoundaries()
    {
        QFETCH(QStringList, replies);
        QFETCH(QByteArray, fields);
        QFETCH(QString, calls);
        QFETCH(QString, agreed);
        QFETCH(double, confidence);
        QFETCH(QString, synSpans);
        std::map<std::string, TimedReplyBackend::Reply> script{{"judge", says("783", 0.4, 500)}};
        std::vector<std::pair<std::string, std::string>> experts;
        for (int i = 0; i < replies.size(); ++i) {
            const auto id = "e" + std::to_string(i + 1);
            const auto spec = replies[i];
            const double ms = spec.section('/', 1).toDouble();
            script[id] = spec.startsWith("fail") ? TimedReplyBackend::Reply{ms, {}}
                                                 : says(qPrintable(spec.section('@', 0, 0)),
                                                        spec.section('@', 1).section('/', 0, 0).toDouble(), ms);
            experts.emplace_back(id, id); // each expert on a model of its own name
        }
        auto team = panel(experts, json::parse(fields.toStdString()));
        for (auto& node : team.doc()["nodes"]) {
            if (node["id"] == "syn")
                node["model"] = "judge";
        }
        std::vector<std::string> models;
        const auto r = runTimed(team, script, models);
        QCOMPARE(joined(models), calls);
        QStringList spans;
        for (const auto& line : spanLines(r)) {
            if (line.startsWith("syn "))
                spans << line;
        }
        QCOMPARE(spans.join('|'), synSpans);
        const auto syn = resultOf(r, "syn");
        QCOMPARE(q(toString(syn.status)), QString("ok"));
        QCOMPARE(joined(syn.agreed), agreed);
        QCOMPARE(q(syn.skippedModel), agreed.isEmpty() ? QString() : QString("agreement"));
        QCOMPARE(syn.confidence, confidence);
        QCOMPARE(q(syn.answer), QString("783"));
        if (!agreed.isEmpty()) {
            QCOMPARE(syn.tokensIn + syn.tokensOut, int64_t(0));
            QCOMPARE(syn.costUsd, 0.0);
            QCOMPARE(q(syn.text), q(resultOf(r, agreed.section(',', 0, 0).toStdString()).text));
        }
    }

    // What a stored run keeps: the note on the span, skipped_model and
    // agreed on the node; and `runs export --format json` prints them.
    void theStoreAndTheExportKeepIt()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto opened = RunStore::open(dir.filePath("runs.sqlite").toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        std::string problems;
        const auto team = panel({{"a", "right-100"}, {"b", "right-300"}}, kSkip).build(problems);
        QVERIFY2(team, problems.c_str());
        std::string error;
        auto recorder = opened.store->record(*team, error);
        QVERIFY2(recorder, error.c_str());
        const auto r = m_h.run(*team, kMath, Engine::StartOptions{42, {recorder.get()}, ClockRequest::Virtual, {}, {}});
        opened.store->flush();
        auto reader = opened.store->reader(error);
        QVERIFY2(reader, error.c_str());
        const auto stored = reader->load(recorder->id(), false, error);
        QVERIFY2(stored, error.c_str());
        const auto broken = invariants::checkStored(r, *stored);
        for (const auto& b : broken)
            qWarning("%s", b.c_str());
        QVERIFY(broken.empty());
        const QString note = "skipped_model: agreement (a, b agree on \"783\", 2 of 2 ok inputs)";
        const auto span = std::find_if(stored->spans.begin(), stored->spans.end(),
                                       [](const Span& s) { return s.node.str() == "syn"; });
        QVERIFY(span != stored->spans.end());
        QCOMPARE(q(span->note), note);
        const auto node = std::find_if(stored->nodes.begin(), stored->nodes.end(),
                                       [](const StoredNode& n) { return n.node.str() == "syn"; });
        QVERIFY(node != stored->nodes.end());
        QCOMPARE(q(node->result.skippedModel), QString("agreement"));
        QCOMPARE(joined(node->result.agreed), QString("a,b"));

        const auto exported = json::parse(exportRun(*stored, ExportFormat::Json));
        json synNode, synSpan, aNode;
        for (const auto& n : exported["nodes"]) {
            if (n["node"] == "syn")
                synNode = n;
            if (n["node"] == "a")
                aNode = n;
        }
        for (const auto& s : exported["spans"]) {
            if (s["node"] == "syn")
                synSpan = s;
        }
        QCOMPARE(q(synNode.value("skipped_model", "")), QString("agreement"));
        QCOMPARE(q(synNode["agreed"].dump()), QString(R"(["a","b"])"));
        QCOMPARE(synNode["tokens_in"].get<int64_t>(), int64_t(0));
        QCOMPARE(synNode["cost_usd"].get<double>(), 0.0);
        QCOMPARE(q(synSpan.value("note", "")), note);
        QCOMPARE(q(synSpan["status"].get<std::string>()), QString("ok"));
        // Nodes that skipped nothing say nothing about it.
        QVERIFY(!aNode.contains("skipped_model"));
        QVERIFY(!aNode.contains("agreed"));
    }
};

QTEST_GUILESS_MAIN(TestAgreementSkip)
#include "tst_agreementskip.moc"
