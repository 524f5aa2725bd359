// The simulator's structured calls, answered by the purpose and inputs the
// engine gives (never by prompt wording): route choice, decomposition,
// synthesis, combination, and judges (a perfect one, a weak one).
#include <QtTest>

#include "support/QtStrings.h"
#include "support/ResponderFixture.h"

#include "conclave/engine/ReplyParser.h"

#include <string>
#include <utility>
#include <vector>

using namespace conclave;
using namespace testsupport;

class TestLocalResponderCalls : public QObject, protected ResponderFixture {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(load()); }

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

QTEST_GUILESS_MAIN(TestLocalResponderCalls)
#include "tst_localrespondercalls.moc"
