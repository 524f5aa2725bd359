// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/local/Gate.h"
#include "conclave/local/LocalResponder.h"
#include "conclave/local/TaskSet.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace conclave;

namespace {

const std::vector<std::string> kDomains{"math", "code", "facts", "writing", "reasoning"};

// A profile without jitter: every call takes ttft + tokens / speed.
ResolvedProfile exact(double skill, double ttftMs = 50, double tokensPerS = 1000, double outputTokens = 100)
{
    ResolvedProfile p;
    for (const auto& d : kDomains)
        p.skills[d] = skill;
    p.ttftMs = {ttftMs, ttftMs};
    p.tokensPerS = {tokensPerS, tokensPerS};
    p.outputTokens = {outputTokens, outputTokens};
    p.pricePerMtok = {1, 2};
    p.contextTokens = 100000;
    p.failureRate = 0;
    return p;
}

// A profile with jitter, like the shipped ones.
ResolvedProfile jittery(double skill)
{
    auto p = exact(skill);
    p.ttftMs = {300, 900};
    p.tokensPerS = {60, 35};
    p.outputTokens = {300, 800};
    return p;
}

ResolvedProfile only(const std::string& domain)
{
    auto p = exact(0);
    p.skills[domain] = 1;
    return p;
}

ModelRequest ask(std::string model, std::string prompt, int attempt = 1, std::string salt = "node")
{
    ModelRequest r;
    r.model = std::move(model);
    r.system = std::string(PromptBuilder::answerFormat());
    r.runInput = prompt;
    r.prompt = std::move(prompt);
    r.salt = std::move(salt);
    r.attempt = attempt;
    return r;
}

// The call of a judge run that grades `judged`, as the engine makes it.
ModelRequest judging(ModelRequest r, const JudgeCase& judged)
{
    r.purpose = CallPurpose::Judge;
    r.inputs.judge = judged;
    return r;
}

} // namespace

class TestLocalResponder : public QObject {
    Q_OBJECT

    std::shared_ptr<const Gate> m_gate;
    std::shared_ptr<const TaskSet> m_tasks;
    std::unique_ptr<LocalResponder> m_responder;

    std::unique_ptr<LocalResponder> make(uint64_t seed) const
    {
        std::map<std::string, ResolvedProfile> profiles{
            {"right", exact(1)},
            {"wrong", exact(0)},
            {"jittery", jittery(0.5)},
            {"failing",
             [] {
                 auto p = exact(1);
                 p.failureRate = 1;
                 return p;
             }()},
            {"small-window",
             [] {
                 auto p = exact(1);
                 p.contextTokens = 10;
                 return p;
             }()},
            {"no-window",
             [] {
                 auto p = exact(1);
                 p.contextTokens.reset();
                 return p;
             }()},
            {"slow", exact(1, 200, 50, 100)},
            {"math-only", only("math")},
            {"code-only", only("code")},
        };
        return std::make_unique<LocalResponder>(std::move(profiles), m_gate, m_tasks, seed);
    }

private slots:
    void initTestCase()
    {
        auto gate = Gate::load(CONCLAVE_RESOURCES "/models/gate.json");
        QVERIFY(gate.gate);
        m_gate = std::make_shared<const Gate>(std::move(*gate.gate));
        auto tasks = TaskSet::loadFolder(CONCLAVE_RESOURCES "/tasksets");
        QVERIFY(tasks.tasks);
        QVERIFY(tasks.tasks->tasks().size() >= 50);
        m_tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
        m_responder = make(42);
    }

    void sameRequestSameReply()
    {
        const auto other = make(42);
        for (const auto* model : {"right", "wrong", "jittery"}) {
            for (const auto& task : m_tasks->tasks()) {
                const auto request = ask(model, task.prompt);
                const auto a = m_responder->respond(request);
                const auto b = m_responder->respond(request);
                const auto c = other->respond(request);
                for (const auto* x : {&b, &c}) {
                    QCOMPARE(q(x->reply.text), q(a.reply.text));
                    QCOMPARE(x->reply.ok, a.reply.ok);
                    QCOMPARE(x->reply.tokensIn, a.reply.tokensIn);
                    QCOMPARE(x->reply.tokensOut, a.reply.tokensOut);
                    QCOMPARE(x->reply.plannedMs, a.reply.plannedMs);
                    QCOMPARE(x->ttftMs, a.ttftMs);
                    QCOMPARE(x->totalMs, a.totalMs);
                    QCOMPARE(q(x->firstChunk), q(a.firstChunk));
                }
            }
        }
    }

    void drawsDependOnSeedAttemptAndCaller()
    {
        const auto other = make(43);
        int seedChanges = 0;
        int attemptChanges = 0;
        int callerChanges = 0;
        for (const auto& task : m_tasks->tasks()) {
            const auto base = m_responder->respond(ask("jittery", task.prompt));
            seedChanges += other->respond(ask("jittery", task.prompt)).reply.plannedMs != base.reply.plannedMs;
            attemptChanges +=
                m_responder->respond(ask("jittery", task.prompt, 2)).reply.plannedMs != base.reply.plannedMs;
            callerChanges +=
                m_responder->respond(ask("jittery", task.prompt, 1, "other")).reply.plannedMs != base.reply.plannedMs;
        }
        const int n = int(m_tasks->tasks().size());
        QCOMPARE(seedChanges, n);
        QCOMPARE(attemptChanges, n);
        QCOMPARE(callerChanges, n);
    }

    void skillOneAlwaysRightZeroAlwaysWrong()
    {
        for (const auto& task : m_tasks->tasks()) {
            const auto truth = ReplyParser::normalizeAnswer(task.answer);
            for (int attempt = 1; attempt <= 3; ++attempt) {
                const auto right = m_responder->respond(ask("right", task.prompt, attempt));
                const auto wrong = m_responder->respond(ask("wrong", task.prompt, attempt));
                QVERIFY(right.reply.ok);
                QVERIFY(wrong.reply.ok);
                QVERIFY2(ReplyParser::parse(right.reply.text).answer == truth, task.id.c_str());
                const auto wrongAnswer = ReplyParser::parse(wrong.reply.text).answer;
                QVERIFY2(wrongAnswer != truth, qPrintable(q(task.id + ": " + wrongAnswer)));
                QVERIFY2(!wrongAnswer.empty(), task.id.c_str());
            }
        }
    }

    void taskFoundByRunInputWhenThePromptIsATemplate()
    {
        // An expert's prompt may wrap the question; the run's input still names the task.
        const auto* task = m_tasks->byId("math-001");
        QVERIFY(task);
        auto request = ask("right", "Please help.\n\nQuestion:\n" + task->prompt + "\n\nThanks.");
        QCOMPARE(q(ReplyParser::parse(m_responder->respond(request).reply.text).answer), QStringLiteral("783"));
        request.prompt = "Something unrelated";
        QCOMPARE(q(ReplyParser::parse(m_responder->respond(request).reply.text).answer), QStringLiteral("783"));
    }

    void wrongMultipleChoiceAnswersAreOtherChoices()
    {
        int checked = 0;
        for (const auto& task : m_tasks->tasks()) {
            if (task.choices.empty())
                continue;
            std::set<std::string> choices;
            for (const auto& c : task.choices)
                choices.insert(ReplyParser::normalizeAnswer(c));
            const auto truth = ReplyParser::normalizeAnswer(task.answer);
            for (int attempt = 1; attempt <= 4; ++attempt) {
                const auto answer =
                    ReplyParser::parse(m_responder->respond(ask("wrong", task.prompt, attempt)).reply.text).answer;
                QVERIFY2(choices.contains(answer), qPrintable(q(task.id + ": " + answer)));
                QVERIFY2(answer != truth, task.id.c_str());
                ++checked;
            }
        }
        QVERIFY(checked > 0);
    }

    void rightAnswersSoundSurer()
    {
        double right = 0;
        double wrong = 0;
        for (const auto& task : m_tasks->tasks()) {
            const auto r = ReplyParser::parse(m_responder->respond(ask("right", task.prompt)).reply.text);
            const auto w = ReplyParser::parse(m_responder->respond(ask("wrong", task.prompt)).reply.text);
            QVERIFY(r.confidence > 0 && r.confidence < 1);
            QVERIFY(w.confidence > 0 && w.confidence < 1);
            right += r.confidence;
            wrong += w.confidence;
        }
        const double n = double(m_tasks->tasks().size());
        QVERIFY2(right / n > wrong / n + 0.3, qPrintable(QStringLiteral("%1 vs %2").arg(right / n).arg(wrong / n)));
    }

    void failureRateOneAlwaysFailsRetryable()
    {
        for (const auto& task : m_tasks->tasks()) {
            for (int attempt = 1; attempt <= 3; ++attempt) {
                const auto call = m_responder->respond(ask("failing", task.prompt, attempt));
                QVERIFY(!call.reply.ok);
                QVERIFY(call.reply.retryable);
                QVERIFY(!call.reply.cancelled);
                QCOMPARE(q(call.reply.error), QStringLiteral("simulated server error (503) from failing"));
                QCOMPARE(call.reply.tokensOut, int64_t(0));
                QCOMPARE(call.totalMs, 50.0); // the error comes at the time of the first token
                QCOMPARE(call.reply.plannedMs, 50.0);
            }
        }
    }

    void contextWindowError()
    {
        // (system + prompt + 3) / 4 tokens: the answer-format system line alone is over 10.
        auto request = ask("small-window", std::string(100, 'x'));
        request.system.clear();
        const auto call = m_responder->respond(request);
        QVERIFY(!call.reply.ok);
        QVERIFY(!call.reply.retryable);
        QCOMPARE(call.reply.tokensIn, int64_t(25));
        QCOMPARE(q(call.reply.error),
                 QStringLiteral("the prompt is 25 tokens; small-window has a context window of 10"));

        request.prompt = "short";
        const auto fits = m_responder->respond(request);
        QVERIFY(fits.reply.ok);
        QCOMPARE(fits.reply.tokensIn, int64_t(2));
    }

    void noContextWindowNoLimit()
    {
        // Issue 30: a profile without context_tokens got 8,192 silently; now nothing is too long for it.
        QVERIFY(!ResolvedProfile{}.contextTokens);
        auto request = ask("no-window", std::string(100'000, 'x'));
        request.system.clear();
        const auto call = m_responder->respond(request);
        QVERIFY2(call.reply.ok, call.reply.error.c_str());
        QCOMPARE(call.reply.tokensIn, int64_t(25'000)); // beyond the old 8,192
    }

    void unknownModel()
    {
        const auto call = m_responder->respond(ask("nope", "hello"));
        QVERIFY(!call.reply.ok);
        QVERIFY(!call.reply.retryable);
        QCOMPARE(q(call.reply.error), QStringLiteral("unknown local model \"nope\""));
        QVERIFY(m_responder->profile("nope") == nullptr);
        QVERIFY(m_responder->profile("right") != nullptr);
    }

    void latencyWithoutJitter_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("maxTokens"); // 0: no cap
        QTest::addColumn<double>("ttftMs");
        QTest::addColumn<double>("totalMs");
        QTest::addColumn<int>("tokensOut");

        QTest::newRow("fast") << "right" << 0 << 50.0 << 150.0 << 100;
        QTest::newRow("slow") << "slow" << 0 << 200.0 << 2200.0 << 100;
        QTest::newRow("max_tokens caps the reply") << "right" << 7 << 50.0 << 57.0 << 7;
        QTest::newRow("max_tokens caps a slow reply") << "slow" << 10 << 200.0 << 400.0 << 10;
        QTest::newRow("max_tokens above the length") << "right" << 1000 << 50.0 << 150.0 << 100;
        QTest::newRow("max_tokens 1") << "right" << 1 << 50.0 << 51.0 << 1;
    }

    void latencyWithoutJitter()
    {
        QFETCH(QString, model);
        QFETCH(int, maxTokens);
        QFETCH(double, ttftMs);
        QFETCH(double, totalMs);
        QFETCH(int, tokensOut);
        for (const auto& task : m_tasks->tasks()) {
            auto request = ask(model.toStdString(), task.prompt);
            if (maxTokens > 0)
                request.params.maxTokens = maxTokens;
            const auto call = m_responder->respond(request);
            QVERIFY(call.reply.ok);
            QCOMPARE(call.ttftMs, ttftMs);
            QCOMPARE(call.totalMs, totalMs);
            QCOMPARE(call.reply.plannedMs, totalMs);
            QCOMPARE(call.reply.tokensOut, int64_t(tokensOut));
            QCOMPARE(call.reply.tokensIn, int64_t((request.system.size() + request.prompt.size() + 3) / 4));
            QVERIFY(!call.firstChunk.empty());
            QVERIFY(call.reply.text.starts_with(call.firstChunk));
        }
    }

    void jitterStaysNearTheProfile()
    {
        std::vector<double> ttfts;
        for (const auto& task : m_tasks->tasks()) {
            for (int attempt = 1; attempt <= 4; ++attempt) {
                const auto call = m_responder->respond(ask("jittery", task.prompt, attempt));
                QVERIFY(call.reply.ok);
                QVERIFY(call.ttftMs > 0);
                QVERIFY(call.totalMs > call.ttftMs);
                ttfts.push_back(call.ttftMs);
            }
        }
        std::sort(ttfts.begin(), ttfts.end());
        const double median = ttfts[ttfts.size() / 2];
        QVERIFY2(median > 200 && median < 450, qPrintable(QString::number(median)));
        QVERIFY(ttfts.front() < ttfts.back());
    }

    void routeChoice_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("labels");
        QTest::addColumn<QString>("request");
        QTest::addColumn<QString>("label");

        const QStringList singleCompound{"single", "compound"};
        const QString twoQuestions = "What is the capital city of France? What is the capital city of Japan?";
        QTest::newRow("one question") << "right" << singleCompound << "What is the capital city of France?"
                                      << "single";
        QTest::newRow("two questions") << "right" << singleCompound << twoQuestions << "compound";
        QTest::newRow("and then") << "right" << singleCompound << "Add 2 and 3 and then double it."
                                  << "compound";
        QTest::newRow("labels in the other order")
            << "right" << QStringList{"compound", "single"} << twoQuestions << "compound";
        QTest::newRow("no reasoning: the other label") << "wrong" << singleCompound << twoQuestions << "single";
        QTest::newRow("no reasoning, one question") << "wrong" << singleCompound << "Calculate 323 + 460."
                                                    << "compound";
        QTest::newRow("by domain: math") << "right" << QStringList{"code", "math"} << "Calculate 323 + 460."
                                         << "math";
        QTest::newRow("one label") << "wrong" << QStringList{"only"} << "anything"
                                   << "only";
    }

    void routeChoice()
    {
        QFETCH(QString, model);
        QFETCH(QStringList, labels);
        QFETCH(QString, request);
        QFETCH(QString, label);
        auto choice = ask(model.toStdString(), PromptBuilder::routeChoicePrompt(toStd(labels), request.toStdString()));
        choice.purpose = CallPurpose::Route;
        choice.inputs.routes = toStd(labels);
        choice.inputs.task = request.toStdString();
        const auto call = m_responder->respond(choice);
        QVERIFY(call.reply.ok);
        QCOMPARE(q(ReplyParser::routeLabel(call.reply.text, toStd(labels))), label);
        QCOMPARE(q(call.reply.text), label); // a route choice is the label alone
    }

    void decompose_data()
    {
        QTest::addColumn<QString>("task");
        QTest::addColumn<int>("maxSubtasks");
        QTest::addColumn<QStringList>("subtasks");

        QTest::newRow("two questions") << "What is the capital city of France? What is the capital city of Japan?" << 3
                                       << QStringList{"What is the capital city of France?",
                                                      "What is the capital city of Japan?"};
        QTest::newRow("joiner dropped and capitalized")
            << "What is 2 + 2? And what is 3 + 3?" << 3 << QStringList{"What is 2 + 2?", "What is 3 + 3?"};
        QTest::newRow("more parts than allowed: the last ones merge") << "A? B? C?" << 2 << QStringList{"A?", "B? C?"};
        QTest::newRow("one question") << "What is the capital city of Japan?" << 3
                                      << QStringList{"What is the capital city of Japan?"};
        QTest::newRow("a sentence, then a question")
            << "Calculate 323 + 460. And what is the capital city of France?" << 2
            << QStringList{"Calculate 323 + 460.", "What is the capital city of France?"};
    }

    void decompose()
    {
        QFETCH(QString, task);
        QFETCH(int, maxSubtasks);
        QFETCH(QStringList, subtasks);
        auto request = ask("right", PromptBuilder::decomposePrompt(task.toStdString(), size_t(maxSubtasks)));
        request.system = PromptBuilder::decomposeSystem();
        request.runInput = task.toStdString();
        request.purpose = CallPurpose::Plan;
        request.inputs.task = task.toStdString();
        request.inputs.maxSubtasks = size_t(maxSubtasks);
        const auto call = m_responder->respond(request);
        QVERIFY(call.reply.ok);
        QCOMPARE(toQt(ReplyParser::subtasks(call.reply.text)), subtasks);
    }

    void synthesize_data()
    {
        QTest::addColumn<QString>("task");
        QTest::addColumn<QStringList>("answers"); // "answer@confidence"
        QTest::addColumn<QString>("answer");

        QTest::newRow("all agree") << "Calculate 323 + 460." << QStringList{"783@0.9", "783@0.8", "783@0.7"} << "783";
        QTest::newRow("all agree on a wrong answer")
            << "Calculate 323 + 460." << QStringList{"784@0.9", "784@0.8"} << "784";
        QTest::newRow("free question: most confidence wins")
            << "Name a colour." << QStringList{"red@0.9", "blue@0.4", "blue@0.3"} << "red";
        QTest::newRow("free question: summed confidence")
            << "Name a colour." << QStringList{"red@0.6", "blue@0.4", "blue@0.3"} << "blue";
        QTest::newRow("no candidates") << "Calculate 323 + 460." << QStringList{} << "unknown";
    }

    void synthesize()
    {
        QFETCH(QString, task);
        QFETCH(QStringList, answers);
        QFETCH(QString, answer);
        std::vector<Candidate> candidates;
        int i = 0;
        for (const auto& a : answers) {
            const auto parts = a.split(QLatin1Char('@'));
            candidates.push_back({"e" + std::to_string(++i), parts[0].toStdString(), parts[1].toDouble(), ""});
        }
        auto request = ask("right", PromptBuilder::synthesizePrompt(task.toStdString(), candidates));
        request.runInput = task.toStdString();
        request.purpose = CallPurpose::Synthesize;
        request.inputs.task = task.toStdString();
        request.inputs.candidates = candidates;
        const auto call = m_responder->respond(request);
        QVERIFY(call.reply.ok);
        const auto parsed = ReplyParser::parse(call.reply.text);
        QCOMPARE(q(parsed.answer), answer);
        const auto lead = candidates.empty()
                              ? std::string("No candidate answers were given.")
                              : "Having weighed " + std::to_string(candidates.size()) + " candidate answers:";
        QVERIFY2(call.reply.text.starts_with(lead), call.reply.text.c_str());
    }

    void combine_data()
    {
        QTest::addColumn<QStringList>("parts"); // "answer@confidence"
        QTest::addColumn<QString>("answer");
        QTest::addColumn<double>("confidence");

        QTest::newRow("two parts, in order") << QStringList{"783@0.8", "Paris@0.9"} << "783; paris" << 0.8;
        QTest::newRow("three parts") << QStringList{"a@0.9", "b@0.6", "c@0.7"} << "a; b; c" << 0.6;
        QTest::newRow("one part") << QStringList{"tokyo@0.95"} << "tokyo" << 0.95;
        QTest::newRow("no parts") << QStringList{} << "unknown" << 0.1;
    }

    void combine()
    {
        QFETCH(QStringList, parts);
        QFETCH(QString, answer);
        QFETCH(double, confidence);
        std::vector<Candidate> candidates;
        int i = 0;
        for (const auto& p : parts) {
            const auto fields = p.split(QLatin1Char('@'));
            candidates.push_back({"m" + std::to_string(++i), fields[0].toStdString(), fields[1].toDouble(), ""});
        }
        const auto task = std::string("Calculate 323 + 460. And what is the capital city of France?");
        auto request = ask("right", PromptBuilder::combinePrompt(task, candidates));
        request.runInput = task;
        request.purpose = CallPurpose::Combine;
        request.inputs.task = task;
        request.inputs.candidates = candidates;
        const auto call = m_responder->respond(request);
        QVERIFY(call.reply.ok);
        const auto parsed = ReplyParser::parse(call.reply.text);
        QCOMPARE(q(parsed.answer), answer);
        QCOMPARE(parsed.confidence, confidence);
        QVERIFY(call.reply.text.starts_with("Putting the " + std::to_string(candidates.size()) + " parts together:"));
    }

    void freePromptGetsSynthesizedText()
    {
        const auto& sentences = LocalResponder::freeAnswers();
        const std::set<std::string> words(sentences.begin(), sentences.end());
        for (const auto* prompt : {"Tell me something nice.", "Describe a sunset in one word."}) {
            const auto call = m_responder->respond(ask("jittery", prompt));
            QVERIFY(call.reply.ok);
            QVERIFY(call.reply.text.starts_with("(simulated reply) On \"" + std::string(prompt) + "\": "));
            QVERIFY(words.contains(ReplyParser::parse(call.reply.text).answer));
        }
    }

    void gateScores()
    {
        const std::string math = "Calculate 323 + 460.";
        const auto weights = m_gate->weigh(math);
        const auto scores = m_responder->gateScores(math, {"math-only", "code-only", "right", "not-a-model"});
        QCOMPARE(scores.size(), size_t(4));
        QVERIFY(qAbs(scores[0] - weights[0]) < 1e-12); // domains are math, code, facts, writing, reasoning
        QVERIFY(qAbs(scores[1] - weights[1]) < 1e-12);
        QVERIFY(qAbs(scores[2] - 1.0) < 1e-12); // skill 1 everywhere
        QVERIFY(qAbs(scores[3] - 0.5) < 1e-12); // unknown: 0.5 per domain
        QVERIFY(scores[0] > 0.5);
        QVERIFY(scores[0] > scores[1]);
    }

    void resolveAppliesOverridesFieldByField()
    {
        ModelProfile base;
        base.skills = std::map<std::string, double>{{"math", 0.9}, {"code", 0.4}};
        base.ttftMs = Distribution{100, 200};
        base.tokensPerS = Distribution{50, 30};
        base.pricePerMtok = Price{1, 2};
        base.contextTokens = 4096;
        base.failureRate = 0.1;
        ModelProfile patch;
        patch.skills = std::map<std::string, double>{{"code", 1.0}};
        patch.ttftMs = Distribution{10, 10};
        patch.failureRate = 0;
        ModelProfile fresh;
        fresh.contextTokens = 64;

        const auto resolved = LocalResponder::resolve({{"m", base}}, {{"m", patch}, {"new", fresh}});
        QCOMPARE(resolved.size(), size_t(2));
        const auto& m = resolved.at("m");
        QCOMPARE(m.skill("math"), 0.9);
        QCOMPARE(m.skill("code"), 1.0);
        QCOMPARE(m.skill("facts"), 0.5); // not given: even odds
        QVERIFY(m.ttftMs == (Distribution{10, 10}));
        QVERIFY(m.tokensPerS == (Distribution{50, 30}));
        QVERIFY(m.pricePerMtok == (Price{1, 2}));
        QCOMPARE(m.contextTokens, std::optional<int64_t>(4096));
        QCOMPARE(m.failureRate, 0.0);
        const auto& n = resolved.at("new");
        QCOMPARE(n.contextTokens, std::optional<int64_t>(64));
        QVERIFY(n.ttftMs == ResolvedProfile{}.ttftMs);
        // A new model without context_tokens has no limit.
        const auto unset = LocalResponder::resolve({}, {{"new", ModelProfile{}}});
        QVERIFY(!unset.at("new").contextTokens);
    }

    void drawsFollowTheRoleNotTheWordingNorTheCaller()
    {
        // Common random numbers: the same model on the same task, in the same
        // role, draws the same luck whatever the node is called or the prompt says.
        int compared = 0;
        for (const auto& task : m_tasks->tasks()) {
            auto plain = ask("jittery", task.prompt, 1, "e1");
            plain.draw = "expert:0";
            auto reworded =
                ask("jittery", "Please answer carefully.\n\n" + task.prompt + "\nThink first.", 1, "solver");
            reworded.runInput = task.prompt;
            reworded.draw = "expert:0";
            const auto a = m_responder->respond(plain);
            const auto b = m_responder->respond(reworded);
            QCOMPARE(a.reply.plannedMs, b.reply.plannedMs);
            QCOMPARE(ReplyParser::parse(a.reply.text).answer, ReplyParser::parse(b.reply.text).answer);
            // A second expert on the same model is another draw.
            auto second = plain;
            second.draw = "expert:1";
            compared += m_responder->respond(second).reply.plannedMs != a.reply.plannedMs;
        }
        QCOMPARE(compared, int(m_tasks->tasks().size()));
    }

    void aPerfectJudgeGivesTheTruth()
    {
        const Task* task = m_tasks->byId("math-001");
        QVERIFY(task);
        for (const auto& [response, verdict] : std::vector<std::pair<std::string, std::string>>{
                 {"783", "correct"}, {"784", "incorrect"}, {"The answer is 783", "incorrect"}}) {
            const JudgeCase judged{task->prompt, task->answer, response};
            const auto input = PromptBuilder::judgeInput(judged);
            auto judge = make(7);
            judge->prepareFor(input);
            auto request = judging(ask("right", input), judged);
            QCOMPARE(ReplyParser::parse(judge->respond(request).reply.text).answer, verdict);
        }
    }

    void aWeakJudgeErrsAboutHalfAsOftenAsItWouldAnswer()
    {
        // Skill 0: the judge is accurate with probability 1 - (1 - 0) / 2 = 0.5.
        int accurate = 0;
        int judged = 0;
        for (const auto& task : m_tasks->tasks()) {
            const JudgeCase graded{task.prompt, task.answer, task.answer};
            const auto input = PromptBuilder::judgeInput(graded);
            auto judge = make(11);
            judge->prepareFor(input);
            accurate +=
                ReplyParser::parse(judge->respond(judging(ask("wrong", input), graded)).reply.text).answer == "correct";
            ++judged;
        }
        // 194 of the 408 bundled tasks at seed 11: near half, as p = 0.5 says.
        QCOMPARE(judged, 408);
        QCOMPARE(accurate, 194);
    }
};

QTEST_GUILESS_MAIN(TestLocalResponder)
#include "tst_localresponder.moc"
