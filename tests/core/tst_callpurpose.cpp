// The engine says what each call is: every ModelRequest carries its purpose
// and its inputs as data (engine/CallPurpose.h), and the simulator answers by
// them, never by the prompt's wording. Tested: the purposes and inputs each
// kind of call reaches the backend with (route, plan, member turns with their
// transcript, combine, synthesize, judge), and that a synthesizer whose prompt
// is reworded gives the same statuses, answers, confidences and correctness on
// every trial of bundled tasks × seeds, its tokens in (and so its cost)
// differing exactly as the prompt's length does, and nothing else differing.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/Run.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/experiment/AnswerScorer.h"
#include "conclave/http/HttpHub.h"
#include "conclave/local/TaskSet.h"
#include "conclave/session/BackendFactory.h"
#include "conclave/util/TokenEstimate.h"

#include <cstdio>

using namespace enginetest;

namespace {

// Passes every call on to the backend it wraps, first rewriting the request
// when told to, and keeps each request as it was sent.
class RecordingBackend : public ModelBackend {
public:
    using Rewrite = std::function<void(ModelRequest&)>;
    RecordingBackend(std::shared_ptr<ModelBackend> inner, Rewrite rewrite)
        : m_inner(std::move(inner)), m_rewrite(std::move(rewrite))
    {
    }

    CallId start(ModelRequest request, CallCallbacks callbacks) override
    {
        if (m_rewrite)
            m_rewrite(request);
        {
            std::lock_guard lock(m_mutex);
            m_requests.push_back(request);
        }
        return m_inner->start(std::move(request), std::move(callbacks));
    }
    void cancel(CallId call) override { m_inner->cancel(call); }
    double costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const override
    {
        return m_inner->costOf(model, tokensIn, tokensOut);
    }
    double timeScale() const override { return m_inner->timeScale(); }

    std::vector<ModelRequest> requests() const
    {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }

private:
    std::shared_ptr<ModelBackend> m_inner;
    Rewrite m_rewrite;
    mutable std::mutex m_mutex;
    std::vector<ModelRequest> m_requests;
};

// A synthesis prompt worded nothing like PromptBuilder's, from the same inputs.
void reword(ModelRequest& request)
{
    if (request.purpose != CallPurpose::Synthesize)
        return;
    std::string prompt = "Several colleagues looked at this question:\n\n" + request.inputs.task +
                         "\n\nWhat each of them concluded, and how sure they were:\n";
    for (const auto& c : request.inputs.candidates) {
        char sure[16];
        std::snprintf(sure, sizeof sure, "%.0f", c.confidence * 100);
        prompt += "* " + c.source + " says \"" + c.answer + "\", " + sure + " percent sure\n";
    }
    prompt += "Decide which single answer is best and state it.";
    request.prompt = std::move(prompt);
}

struct Traced {
    RunResult result;
    std::vector<ModelRequest> requests;
    const ModelBackend* backend = nullptr; // for costOf, alive while the test runs
    std::shared_ptr<RecordingBackend> keep;
};

QStringList purposes(const std::vector<ModelRequest>& requests)
{
    QStringList out;
    for (const auto& r : requests)
        out << q(callPurposeName(r.purpose));
    return out;
}

QString entries(const std::vector<Candidate>& list)
{
    QStringList out;
    for (const auto& c : list)
        out << QStringLiteral("%1 r%2: %3 @%4").arg(q(c.source)).arg(c.round).arg(q(c.answer)).arg(c.confidence);
    return out.join(QStringLiteral(" | "));
}

} // namespace

class TestCallPurpose : public QObject {
    Q_OBJECT

    EngineHarness m_h;

    // A run of `team` on the virtual clock with the team's local backend
    // wrapped in a RecordingBackend (rewriting requests with `rewrite`).
    Traced runTraced(const Team& team, const std::string& input, uint64_t seed, RecordingBackend::Rewrite rewrite = {},
                     std::optional<JudgeCase> judge = std::nullopt)
    {
        Traced traced;
        const auto prepared = m_h.engine().prepare(team);
        if (!prepared.team) {
            QTest::qFail(("the team does not prepare: " + prepared.error).c_str(), __FILE__, __LINE__);
            return traced;
        }
        ThreadPool pool(2);
        HttpHub hub;
        auto clock = std::make_shared<VirtualClock>(pool);
        auto made = BackendFactory(m_h.engine().resources(), hub, clock).make(*prepared.team, input, seed);
        std::map<BackendName, std::shared_ptr<ModelBackend>> backends;
        for (auto& [name, backend] : made.backends) {
            traced.keep = std::make_shared<RecordingBackend>(backend, rewrite);
            backends.emplace(name, traced.keep);
        }
        RunOptions options;
        options.input = input;
        options.seed = made.seed;
        options.judge = std::move(judge);
        auto run = std::make_shared<Run>(prepared.team->plan, std::move(options), std::move(backends),
                                         std::move(made.gate), clock);
        run->start();
        if (!run->waitFor(60s)) {
            QTest::qFail("the run did not finish within a minute", __FILE__, __LINE__);
            run->cancel();
        }
        traced.result = run->wait();
        traced.requests = traced.keep->requests();
        traced.backend = traced.keep.get();
        return traced;
    }

    Traced runTraced(const TeamBuilder& builder, const std::string& input, uint64_t seed = 42,
                     std::optional<JudgeCase> judge = std::nullopt)
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team) {
            QTest::qFail(("the team does not load: " + problems).c_str(), __FILE__, __LINE__);
            return {};
        }
        return runTraced(*team, input, seed, {}, std::move(judge));
    }

    // Three bundled models answer; a fourth synthesizes their answers.
    static std::optional<Team> synthesisTeam()
    {
        TeamBuilder b;
        b.expert("general", "local/generalist-7b")
            .expert("math", "local/math-13b")
            .expert("facts", "local/facts-7b")
            .node("syn", "aggregator", json{{"strategy", "synthesize"}, {"model", "local/reasoner-34b"}})
            .edge("in", "general")
            .edge("in", "math")
            .edge("in", "facts")
            .edge("general", "syn")
            .edge("math", "syn")
            .edge("facts", "syn")
            .output("syn");
        std::string problems;
        auto team = b.build(problems);
        if (!team)
            qWarning("%s", problems.c_str());
        return team;
    }

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }
    void cleanupTestCase() { m_h.reset(); }

    void purposeNames()
    {
        QCOMPARE(callPurposeName(CallPurpose::Answer), std::string_view("answer"));
        QCOMPARE(callPurposeName(CallPurpose::Synthesize), std::string_view("synthesize"));
        QCOMPARE(callPurposeName(CallPurpose::Plan), std::string_view("plan"));
        QCOMPARE(callPurposeName(CallPurpose::Combine), std::string_view("combine"));
        QCOMPARE(callPurposeName(CallPurpose::Judge), std::string_view("judge"));
        QCOMPARE(callPurposeName(CallPurpose::Route), std::string_view("route"));
        QCOMPARE(callPurposeName(CallPurpose::MemberTurn), std::string_view("member_turn"));
        QCOMPARE(ModelRequest{}.purpose, CallPurpose::Answer);
    }

    void aRouteChoice()
    {
        TeamBuilder b;
        b.node("pick", "router", json{{"strategy", "llm"}, {"model", "right"}})
            .expert("m", "math-only")
            .expert("f", "facts-only")
            .node("join", "aggregator", json{{"strategy", "first"}})
            .edge("in", "pick")
            .edge("pick", "m", "math")
            .edge("pick", "f", "facts")
            .edge("m", "join")
            .edge("f", "join")
            .output("join");
        const auto t = runTraced(b, kMath);
        QCOMPARE(q(toString(t.result.status)), QString("ok"));
        QCOMPARE(purposes(t.requests), (QStringList{"route", "answer"}));
        const auto& route = t.requests[0];
        QCOMPARE(route.inputs.routes, (std::vector<std::string>{"math", "facts"}));
        QCOMPARE(route.inputs.task, std::string(kMath));
        QVERIFY(route.inputs.candidates.empty() && route.inputs.transcript.empty() && !route.inputs.judge);
        QCOMPARE(answerOf(t.result, "pick"), QString("math"));
        // The chosen expert answers the run's input.
        QCOMPARE(t.requests[1].inputs.task, std::string(kMath));
        QCOMPARE(t.requests[1].model, std::string("math-only"));
    }

    void aPlanItsMembersAndTheCombination()
    {
        TeamBuilder b;
        b.node("lead", "coordinator", json{{"mode", "decompose"}, {"model", "right"}})
            .expert("m1", "right")
            .expert("m2", "right")
            .edge("in", "lead")
            .member("lead", "m1")
            .member("lead", "m2")
            .output("lead");
        const auto t = runTraced(b, kCompound);
        QCOMPARE(q(toString(t.result.status)), QString("ok"));
        QCOMPARE(purposes(t.requests), (QStringList{"plan", "member_turn", "member_turn", "combine"}));
        QCOMPARE(t.requests[0].inputs.task, std::string(kCompound));
        QCOMPARE(t.requests[0].inputs.maxSubtasks, size_t(2));
        // Members get their subtasks (in either order: they run together), shown no transcript.
        QStringList subtasks;
        for (size_t i : {1, 2}) {
            subtasks << q(t.requests[i].inputs.task);
            QVERIFY(t.requests[i].inputs.transcript.empty());
        }
        subtasks.sort();
        QCOMPARE(subtasks, (QStringList{"Calculate 323 + 460.", "What is the capital city of France?"}));
        // The combination weighs the parts in subtask order, with the members' own answers.
        const auto& combine = t.requests[3];
        QCOMPARE(combine.inputs.task, std::string(kCompound));
        const auto m1 = resultOf(t.result, "m1");
        const auto m2 = resultOf(t.result, "m2");
        QCOMPARE(entries(combine.inputs.candidates),
                 QStringLiteral("m1 r0: 783 @%1 | m2 r0: paris @%2").arg(m1.confidence).arg(m2.confidence));
        QCOMPARE(q(t.result.output.answer), QString("783; paris"));
    }

    void aSynthesis()
    {
        TeamBuilder b;
        b.expert("e1", "right")
            .expert("e2", "wrong")
            .node("syn", "aggregator", json{{"strategy", "synthesize"}, {"model", "right"}})
            .edge("in", "e1")
            .edge("in", "e2")
            .edge("e1", "syn")
            .edge("e2", "syn")
            .output("syn");
        const auto t = runTraced(b, kMath);
        QCOMPARE(q(toString(t.result.status)), QString("ok"));
        QCOMPARE(purposes(t.requests), (QStringList{"answer", "answer", "synthesize"}));
        for (size_t i : {0, 1})
            QCOMPARE(t.requests[i].inputs.task, std::string(kMath));
        const auto& syn = t.requests[2];
        QCOMPARE(syn.inputs.task, std::string(kMath));
        const auto e1 = resultOf(t.result, "e1");
        const auto e2 = resultOf(t.result, "e2");
        QCOMPARE(
            entries(syn.inputs.candidates),
            QStringLiteral("e1 r0: 783 @%1 | e2 r0: %2 @%3").arg(e1.confidence).arg(q(e2.answer)).arg(e2.confidence));
        // The whole replies stay in the prompt; the inputs carry answers, not texts.
        QVERIFY(syn.inputs.candidates[0].text.empty());
        QCOMPARE(q(t.result.output.answer), QString("783"));
    }

    void aDebatesMemberTurns()
    {
        // right and wrong disagree, so there is a second round, shown the first.
        TeamBuilder b;
        b.node("panel", "coordinator", json{{"mode", "debate"}, {"max_rounds", 2}, {"consensus", 1.0}})
            .expert("m1", "right")
            .expert("m2", "wrong")
            .edge("in", "panel")
            .member("panel", "m1")
            .member("panel", "m2")
            .output("panel");
        const auto t = runTraced(b, kMath);
        QCOMPARE(q(toString(t.result.status)), QString("ok"));
        QCOMPARE(purposes(t.requests), (QStringList{"member_turn", "member_turn", "member_turn", "member_turn"}));
        QString firstRound, secondRound;
        for (size_t i = 0; i < 4; ++i) {
            QCOMPARE(t.requests[i].inputs.task, std::string(kMath));
            const auto shown = entries(t.requests[i].inputs.transcript);
            (i < 2 ? firstRound : secondRound) += shown + ';';
        }
        QCOMPARE(firstRound, QString(";;"));
        // Both second-round turns see the first round, in member order.
        const auto& shown = t.requests[2].inputs.transcript;
        QCOMPARE(int(shown.size()), 2);
        QCOMPARE(q(shown[0].source + "," + shown[1].source), QString("m1,m2"));
        QCOMPARE(shown[0].round, 1);
        QCOMPARE(q(shown[0].answer), QString("783"));
        QVERIFY(shown[1].answer != "783");
        QCOMPARE(entries(t.requests[3].inputs.transcript), entries(shown));
    }

    void aMemberWhosePromptShowsNoTranscriptIsShownNone()
    {
        TeamBuilder b;
        b.node("panel", "coordinator", json{{"mode", "debate"}, {"max_rounds", 2}, {"consensus", 1.0}})
            .expert("m1", "right", json{{"prompt", "{{task}}"}})
            .expert("m2", "wrong", json{{"prompt", "Round {{round}}: {{task}}"}})
            .edge("in", "panel")
            .member("panel", "m1")
            .member("panel", "m2")
            .output("panel");
        const auto t = runTraced(b, kMath);
        QCOMPARE(int(t.requests.size()), 4);
        for (const auto& r : t.requests)
            QVERIFY(r.inputs.transcript.empty());
    }

    void aJudgeRunsCalls()
    {
        // The run's start options carry the case: its answering call is a judge call.
        TeamBuilder b;
        b.expert("grader", "right").edge("in", "grader").output("grader");
        const JudgeCase judged{kMath, "783", "784"};
        const auto input = PromptBuilder::judgeInput(judged);
        const auto t = runTraced(b, input, 42, judged);
        QCOMPARE(purposes(t.requests), (QStringList{"judge"}));
        QVERIFY(t.requests[0].inputs.judge);
        QCOMPARE(t.requests[0].inputs.judge->question, judged.question);
        QCOMPARE(t.requests[0].inputs.judge->reference, judged.reference);
        QCOMPARE(t.requests[0].inputs.judge->response, judged.response);
        QCOMPARE(q(t.result.output.answer), QString("incorrect"));

        // Through the engine's start options, as experiments start a judge.
        std::string problems;
        const auto team = b.build(problems);
        QVERIFY(team);
        Engine::StartOptions options{42, {}, ClockRequest::Virtual, {}, {}};
        options.judge = JudgeCase{kMath, "783", "783"};
        const auto viaEngine = m_h.run(*team, PromptBuilder::judgeInput(*options.judge), options);
        QCOMPARE(q(viaEngine.output.answer), QString("correct"));
        // Without the case the same text is an ordinary prompt: no verdict.
        const auto typed = m_h.runVirtual(*team, PromptBuilder::judgeInput(*options.judge));
        QVERIFY(typed.output.answer != "correct" && typed.output.answer != "incorrect");
    }

    void aRewordedSynthesizerGivesTheSameTrials()
    {
        const auto team = synthesisTeam();
        QVERIFY(team);
        const auto& all = m_h.engine().resources().tasks->tasks();
        int trials = 0, synthesized = 0, timedOut = 0, picks = 0;
        int64_t tokensApart = 0;
        for (size_t k = 0; k < all.size(); k += 37) {
            const Task& task = all[k];
            for (const uint64_t seed : {1, 2, 3}) {
                const auto plain = runTraced(*team, task.prompt, seed);
                const auto reworded = runTraced(*team, task.prompt, seed, reword);
                const QString where = q(task.id) + " seed " + QString::number(seed);
                ++trials;
                // Same statuses, answers, confidences and correctness, node by node.
                QCOMPARE(q(toString(reworded.result.status)), q(toString(plain.result.status)));
                for (const auto& [node, a] : plain.result.results) {
                    const auto& b = reworded.result.results.at(node);
                    QVERIFY2(a.status == b.status, qPrintable(where + " " + q(node.str())));
                    QVERIFY2(a.answer == b.answer, qPrintable(where + " " + q(node.str())));
                    QVERIFY2(a.confidence == b.confidence, qPrintable(where + " " + q(node.str())));
                    QVERIFY2(a.text == b.text, qPrintable(where + " " + q(node.str())));
                    QVERIFY2(a.tokensOut == b.tokensOut, qPrintable(where + " " + q(node.str())));
                }
                QCOMPARE(AnswerScorer::score(task, reworded.result.output.answer),
                         AnswerScorer::score(task, plain.result.output.answer));
                // Time and tokens out do not follow the prompt at all.
                QCOMPARE(reworded.result.wallUs, plain.result.wallUs);
                QCOMPARE(reworded.result.tokensOut, plain.result.tokensOut);
                QCOMPARE(reworded.result.calls, plain.result.calls);
                // Tokens in differ by exactly the estimate of each prompt's own length, and cost with them;
                // an attempt that timed out brought no reply, so no tokens, either way.
                QCOMPARE(reworded.requests.size(), plain.requests.size());
                const auto plainAttempts = spansOf(plain.result, "syn", SpanKind::Attempt);
                const auto rewordedAttempts = spansOf(reworded.result, "syn", SpanKind::Attempt);
                QCOMPARE(rewordedAttempts.size(), plainAttempts.size());
                int64_t expected = 0;
                double expectedUsd = 0;
                size_t attempt = 0;
                for (size_t i = 0; i < plain.requests.size(); ++i) {
                    const auto& p = plain.requests[i];
                    const auto& r = reworded.requests[i];
                    if (p.purpose != CallPurpose::Synthesize) {
                        QCOMPARE(r.prompt, p.prompt);
                        continue;
                    }
                    QVERIFY(r.prompt != p.prompt);
                    ++synthesized;
                    const auto& a = plainAttempts.at(attempt);
                    const auto& b = rewordedAttempts.at(attempt++);
                    QCOMPARE(q(toString(b.status)), q(toString(a.status)));
                    if (a.status == Status::Timeout) {
                        QCOMPARE(a.tokensIn + b.tokensIn, int64_t(0));
                        ++timedOut;
                        continue;
                    }
                    QCOMPARE(a.tokensIn, estimateTokens(p.system.size() + p.prompt.size()));
                    QCOMPARE(b.tokensIn, estimateTokens(r.system.size() + r.prompt.size()));
                    const auto delta = b.tokensIn - a.tokensIn;
                    expected += delta;
                    expectedUsd += plain.backend->costOf(p.model, delta, 0);
                }
                QCOMPARE(reworded.result.tokensIn - plain.result.tokensIn, expected);
                QVERIFY2(std::abs((reworded.result.costUsd - plain.result.costUsd) - expectedUsd) < 1e-12,
                         qPrintable(where));
                tokensApart += expected != 0;
                // A synthesis that followed no majority.
                const auto syn = resultOf(plain.result, "syn");
                int agreeing = 0;
                for (const char* e : {"general", "math", "facts"})
                    agreeing += resultOf(plain.result, e).answer == syn.answer;
                picks += syn.ok() && agreeing < 2;
            }
        }
        QCOMPARE(trials, int((all.size() + 36) / 37) * 3);
        // Every trial synthesized, so every trial compared a reworded prompt; reasoner-34b's slow
        // tail passed the 30 s timeout once, in both runs of that trial.
        QCOMPARE(synthesized, trials);
        QCOMPARE(timedOut, 1);
        QCOMPARE(tokensApart, int64_t(trials - timedOut));
        // In 10 of the 35 syntheses no two experts backed the answer chosen: it weighed, not counted.
        QCOMPARE(picks, 10);
    }
};

QTEST_GUILESS_MAIN(TestCallPurpose)
#include "tst_callpurpose.moc"
