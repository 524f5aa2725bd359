// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/engine/PromptBuilder.h"

#include <map>
#include <string>
#include <vector>

using namespace conclave;

class TestPromptBuilder : public QObject {
    Q_OBJECT

private slots:
    void render_data()
    {
        QTest::addColumn<QString>("tmpl");
        QTest::addColumn<QString>("rendered");

        QTest::newRow("no placeholders") << "plain text"
                                         << "plain text";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("input") << "Q: {{input}}"
                               << "Q: What is 2 + 2?";
        QTest::newRow("spaces inside braces") << "{{ input }}!"
                                              << "What is 2 + 2?!";
        QTest::newRow("inputs") << "{{inputs}}"
                                << "[a]\nfour";
        QTest::newRow("transcript") << "so far:\n{{transcript}}"
                                    << "so far:\n- a (round 1): answer: 4 (confidence 0.90)\n";
        QTest::newRow("task") << "do {{task}} now"
                              << "do the subtask now";
        QTest::newRow("round") << "round {{round}} of 3"
                               << "round 2 of 3";
        QTest::newRow("from a node with output") << "a said {{from.a}}"
                                                 << "a said four";
        QTest::newRow("from a node without output") << "b said [{{from.b}}]"
                                                    << "b said []";
        QTest::newRow("unknown placeholder kept") << "{{nope}} and {{input}}"
                                                  << "{{nope}} and What is 2 + 2?";
        QTest::newRow("unclosed braces kept") << "{{input}} then {{input"
                                              << "What is 2 + 2? then {{input";
        QTest::newRow("repeated") << "{{round}}{{round}}"
                                  << "22";
        QTest::newRow("adjacent text") << "x{{task}}y"
                                       << "xthe subtasky";
        QTest::newRow("single braces untouched") << "{input}"
                                                 << "{input}";
    }

    void render()
    {
        QFETCH(QString, tmpl);
        QFETCH(QString, rendered);
        const std::map<std::string, std::string> outputs{{"a", "four"}};
        const std::string transcript = PromptBuilder::transcriptLine("a", 1, "4", 0.9);
        TemplateValues values;
        values.input = "What is 2 + 2?";
        values.inputs = "[a]\nfour";
        values.transcript = transcript;
        values.task = "the subtask";
        values.round = 2;
        values.from = [&](std::string_view node) -> std::optional<std::string> {
            const auto it = outputs.find(std::string(node));
            if (it == outputs.end())
                return std::nullopt;
            return it->second;
        };
        QCOMPARE(q(PromptBuilder::render(tmpl.toStdString(), values)), rendered);
    }

    void renderWithoutFromLookup()
    {
        TemplateValues values;
        values.input = "x";
        // Without a lookup a {{from.X}} placeholder is left as written.
        QCOMPARE(q(PromptBuilder::render("{{from.a}}|{{input}}", values)), QStringLiteral("{{from.a}}|x"));
    }

    void answerFormat()
    {
        QCOMPARE(q(PromptBuilder::answerFormat()),
                 QStringLiteral("End your reply with two lines: \"Answer: <a short answer>\" and \"Confidence: <a "
                                "number from 0 to 1>\"."));
    }

    void routeChoicePrompt()
    {
        const auto prompt = PromptBuilder::routeChoicePrompt({"math", "facts", "code"}, "Calculate 323 + 460.");
        QCOMPARE(q(prompt), QStringLiteral("Routes: math, facts, code\n\nRequest:\nCalculate 323 + 460."));
        QVERIFY(PromptBuilder::routeChoiceSystem().find("exactly one route label") != std::string::npos);
    }

    void routeChoicePromptWithOneLabel()
    {
        QCOMPARE(q(PromptBuilder::routeChoicePrompt({"only"}, "x")), QStringLiteral("Routes: only\n\nRequest:\nx"));
    }

    void decomposePrompt()
    {
        const auto prompt = PromptBuilder::decomposePrompt("A? B?", 3);
        QCOMPARE(q(prompt), QStringLiteral("Split the task below into at most 3 independent subtasks that together "
                                           "solve it.\n\nTask:\nA? B?"));
    }

    void synthesizePrompt()
    {
        const std::vector<Candidate> candidates{{"e1", "783", 0.9, "text one"}, {"e2", "784", 0.35, "text two"}};
        const auto prompt = PromptBuilder::synthesizePrompt("Calculate 323 + 460.", candidates);
        QCOMPARE(q(prompt), QStringLiteral("Synthesize one final answer to the task below from the candidate answers "
                                           "of the team.\n\nTask:\nCalculate 323 + 460.\n\nCandidates:\n"
                                           "- e1: answer: 783 (confidence 0.90)\n"
                                           "- e2: answer: 784 (confidence 0.35)\n"));
    }

    void synthesizePromptWithoutCandidates()
    {
        QCOMPARE(q(PromptBuilder::synthesizePrompt("T", {})),
                 QStringLiteral("Synthesize one final answer to the task below from the candidate answers of the "
                                "team.\n\nTask:\nT\n\nCandidates:\n"));
    }

    void combinePrompt()
    {
        const std::vector<Candidate> parts{{"sub_math", "783", 0.8, ""}, {"sub_facts", "paris", 1.0, ""}};
        const auto prompt = PromptBuilder::combinePrompt("Calculate 323 + 460. And what is the capital?", parts);
        QCOMPARE(q(prompt), QStringLiteral("Combine the answers to the subtasks below into one answer to the task.\n\n"
                                           "Task:\nCalculate 323 + 460. And what is the capital?\n\nCandidates:\n"
                                           "- sub_math: answer: 783 (confidence 0.80)\n"
                                           "- sub_facts: answer: paris (confidence 1.00)\n"));
    }

    void transcriptLine_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("round");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<double>("confidence");
        QTest::addColumn<QString>("line");

        QTest::newRow("with round") << "m1" << 2 << "783" << 0.9 << "- m1 (round 2): answer: 783 (confidence 0.90)\n";
        QTest::newRow("round 0 omitted") << "m1" << 0 << "yes" << 0.5 << "- m1: answer: yes (confidence 0.50)\n";
        QTest::newRow("rounded to two places")
            << "x" << 1 << "a b" << 0.666 << "- x (round 1): answer: a b (confidence 0.67)\n";
        QTest::newRow("zero and one") << "x" << 0 << "" << 0.0 << "- x: answer:  (confidence 0.00)\n";
        QTest::newRow("one") << "x" << 0 << "n" << 1.0 << "- x: answer: n (confidence 1.00)\n";
    }

    void transcriptLine()
    {
        QFETCH(QString, source);
        QFETCH(int, round);
        QFETCH(QString, answer);
        QFETCH(double, confidence);
        QFETCH(QString, line);
        QCOMPARE(q(PromptBuilder::transcriptLine(source.toStdString(), round, answer.toStdString(), confidence)), line);
    }

    void labelledInputs()
    {
        const std::vector<Candidate> inputs{{"a", "", 0, "first\ntext"}, {"b", "", 0, "second"}};
        QCOMPARE(q(PromptBuilder::labelledInputs(inputs)), QStringLiteral("[a]\nfirst\ntext\n\n[b]\nsecond"));
        QCOMPARE(q(PromptBuilder::labelledInputs({})), QString());
        QCOMPARE(q(PromptBuilder::labelledInputs({{"only", "", 0, "x"}})), QStringLiteral("[only]\nx"));
    }

    void judgeInput()
    {
        QCOMPARE(q(PromptBuilder::judgeInput({"What is 2 + 2?", "4", "It is 4."})),
                 QStringLiteral("Grade the response below against the reference answer. Reply with \"Answer: "
                                "correct\" when the response gives the reference answer (or, without a reference, "
                                "answers the question right), else \"Answer: incorrect\".\n\nQuestion:\nWhat is "
                                "2 + 2?\n\nReference answer:\n4\n\nResponse:\nIt is 4."));
        // Without a reference the prompt says so.
        QVERIFY(PromptBuilder::judgeInput({"Name a colour.", "", "blue"}).find("Reference answer:\n(none)\n") !=
                std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestPromptBuilder)
#include "tst_promptbuilder.moc"
