// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets, and Problem.h reaches it through StrongId.h.
#include <QtTest>

#include "conclave/local/TaskSet.h"

#include <QTemporaryDir>

#include <fstream>
#include <map>

using namespace conclave;

namespace {

const char* const kGood = R"({"id": "a", "domain": "math", "prompt": "What is 2 + 2?", "answer": "4"})";

QString firstProblem(const TaskSet::LoadResult& result, const char* source = "f")
{
    return result.problems.empty() ? QString() : QString::fromStdString(formatProblem(result.problems.front(), source));
}

QStringList allProblems(const TaskSet::LoadResult& result, const std::string& source = "f")
{
    QStringList out;
    for (const auto& p : result.problems)
        out << QString::fromStdString(formatProblem(p, source));
    return out;
}

void writeFile(const QString& path, const std::string& text)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

TaskSet tasksOf(const std::string& text)
{
    auto result = TaskSet::fromJsonLines(text);
    if (!result.tasks)
        qFatal("test task set does not load: %s", qPrintable(firstProblem(result)));
    return std::move(*result.tasks);
}

} // namespace

class TestTaskSet : public QObject {
    Q_OBJECT

private slots:
    void shippedFolderLoads()
    {
        const auto result = TaskSet::loadFolder(CONCLAVE_RESOURCES "/tasksets");
        QVERIFY2(result.tasks, qPrintable(firstProblem(result)));
        QCOMPARE(allProblems(result), QStringList());
        QCOMPARE(result.tasks->tasks().size(), size_t(408));
        std::map<std::string, int> byDomain;
        for (const auto& task : result.tasks->tasks())
            ++byDomain[task.domain];
        const std::map<std::string, int> expected{
            {"code", 75}, {"facts", 88}, {"math", 82}, {"reasoning", 74}, {"writing", 89}};
        QVERIFY(byDomain == expected);
        // Files load in name order, so code.jsonl comes first.
        QCOMPARE(QString::fromStdString(result.tasks->tasks().front().id), QString("code-001"));
    }

    void shippedFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("count");
        QTest::newRow("code") << "code.jsonl" << 75;
        QTest::newRow("facts") << "facts.jsonl" << 88;
        QTest::newRow("math") << "math.jsonl" << 82;
        QTest::newRow("mixed-small") << "mixed-small.jsonl" << 25;
        QTest::newRow("reasoning") << "reasoning.jsonl" << 74;
        QTest::newRow("writing") << "writing.jsonl" << 89;
    }

    void shippedFiles()
    {
        QFETCH(QString, file);
        QFETCH(int, count);
        const auto result = TaskSet::load(QString(CONCLAVE_RESOURCES "/tasksets/" + file).toStdString());
        QVERIFY2(result.tasks, qPrintable(firstProblem(result)));
        QCOMPARE(allProblems(result), QStringList());
        QCOMPARE(result.tasks->tasks().size(), size_t(count));
    }

    void lookups()
    {
        const auto result = TaskSet::loadFolder(CONCLAVE_RESOURCES "/tasksets");
        QVERIFY(result.tasks);
        const auto& set = *result.tasks;

        const Task* france = set.byId("facts-001");
        QVERIFY(france);
        QCOMPARE(QString::fromStdString(france->prompt), QString("What is the capital city of France?"));
        QCOMPARE(QString::fromStdString(france->answer), QString("paris"));
        QVERIFY(france->choices == std::vector<std::string>({"paris", "marseille", "nice", "lyon"}));
        QVERIFY(set.byId("facts-999") == nullptr);
        QVERIFY(set.byId("") == nullptr);

        QCOMPARE(set.byPrompt("Calculate 323 + 460."), set.byId("math-001"));
        QVERIFY(set.byPrompt("Calculate 323 + 460. ") == nullptr);
        QVERIFY(set.byPrompt("calculate 323 + 460.") == nullptr);

        QCOMPARE(set.find("Calculate 323 + 460."), set.byId("math-001"));
        QCOMPARE(set.find("You are a careful mathematician.\n\nCalculate 323 + 460.\n\nAnswer briefly."),
                 set.byId("math-001"));
        QCOMPARE(set.find("Question: What is the capital city of France?"), set.byId("facts-001"));
        QVERIFY(set.find("What is the capital city of Atlantis?") == nullptr);
        QVERIFY(set.find("") == nullptr);
        QVERIFY(set.find("Calculate 323 + 460") == nullptr); // a prompt must appear whole
    }

    void findPrefersTheLongestPrompt()
    {
        const auto set =
            tasksOf(R"({"id": "short", "domain": "math", "prompt": "2+2", "answer": "4"})"
                    "\n"
                    R"({"id": "mid", "domain": "math", "prompt": "What is 2+2", "answer": "4"})"
                    "\n"
                    R"({"id": "long", "domain": "math", "prompt": "What is 2+2? Show your work.", "answer": "4"})"
                    "\n"
                    R"({"id": "other", "domain": "facts", "prompt": "Name a colour.", "answer": "red"})"
                    "\n"
                    R"({"id": "twin", "domain": "facts", "prompt": "Name a flower.", "answer": "rose"})");
        QCOMPARE(QString::fromStdString(set.find("2+2")->id), QString("short"));
        QCOMPARE(QString::fromStdString(set.find("so 2+2=?")->id), QString("short"));
        QCOMPARE(QString::fromStdString(set.find("Q: What is 2+2?")->id), QString("mid"));
        QCOMPARE(QString::fromStdString(set.find("Q: What is 2+2? Show your work. Thanks")->id), QString("long"));
        // Two prompts of equal length: the first loaded wins, wherever they are in the text.
        QCOMPARE(QString::fromStdString(set.find("Name a flower. Name a colour.")->id), QString("other"));
        QVERIFY(set.find("What is 3+3?") == nullptr);
        QVERIFY(set.find("2+") == nullptr);
    }

    void findInLongTextsFindsOnlyTheTaskInside()
    {
        const auto result = TaskSet::loadFolder(CONCLAVE_RESOURCES "/tasksets");
        QVERIFY(result.tasks);
        const auto& set = *result.tasks;
        // A long prompt that shares many prefixes with tasks but holds none of them.
        std::string text;
        while (text.size() < 4000)
            text += "What does this Python program print? What is the capital city of Atlantis? Calculate 1. ";
        const Task* target = set.byId("writing-050");
        QVERIFY(target);
        const std::string withTask = text + target->prompt + text;
        // Speed is measured by benchmarks, not here (timed tests flake on shared machines).
        int found = 0;
        for (int i = 0; i < 2000; ++i)
            found += set.find(i % 2 ? text : withTask) == target ? 1 : 0;
        QCOMPARE(found, 1000);
    }

    void badLines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("syntax") << R"({"id": "a", "domain": )"
                                << "f:1:23: syntax error while parsing value - unexpected end of input; expected "
                                   "'[', '{', or a literal";
        QTest::newRow("two values") << R"({"id": "a"} {"id": "b"})"
                                    << "f:1:13: syntax error while parsing value - unexpected '{'; expected end "
                                       "of input";
        QTest::newRow("not an object") << "[1, 2]"
                                       << "f:1:1: expected a task object with id, domain, prompt and answer, got "
                                          "an array";
        QTest::newRow("missing id") << R"({"domain": "math", "prompt": "p", "answer": "4"})"
                                    << "f:1:1: /id: missing; expected a non-empty string";
        QTest::newRow("empty domain") << R"({"id": "a", "domain": "", "prompt": "p", "answer": "4"})"
                                      << "f:1:1: /domain: expected a non-empty string, got \"\"";
        QTest::newRow("empty prompt") << R"({"id": "a", "domain": "math", "prompt": "", "answer": "4"})"
                                      << "f:1:1: /prompt: expected a non-empty string, got \"\"";
        QTest::newRow("answer a number") << R"({"id": "a", "domain": "math", "prompt": "p", "answer": 3})"
                                         << "f:1:1: /answer: expected a non-empty string, got 3";
        QTest::newRow("choices not array")
            << R"({"id": "a", "domain": "w", "prompt": "p", "answer": "x", "choices": "x"})"
            << "f:1:1: /choices: expected a non-empty array of strings, got \"x\"";
        QTest::newRow("no choices") << R"({"id": "a", "domain": "w", "prompt": "p", "answer": "x", "choices": []})"
                                    << "f:1:1: /choices: expected a non-empty array of strings, got an array";
        QTest::newRow("choice a number")
            << R"({"id": "a", "domain": "w", "prompt": "p", "answer": "x", "choices": ["x", 2]})"
            << "f:1:1: /choices/1: expected a non-empty string, got 2";
        QTest::newRow("duplicate choice")
            << R"({"id": "a", "domain": "w", "prompt": "p", "answer": "x", "choices": ["x", "y", "x"]})"
            << "f:1:1: /choices/2: duplicate choice \"x\"";
        QTest::newRow("answer not a choice")
            << R"({"id": "a", "domain": "w", "prompt": "p", "answer": "z", "choices": ["x", "y"]})"
            << "f:1:1: /answer: \"z\" is not one of the choices";
        QTest::newRow("line numbers count blank lines")
            << QString(kGood) + "\n\n   \n" + R"({"id": "b", "domain": "math", "prompt": "q", "answer": 4})"
            << "f:4:1: /answer: expected a non-empty string, got 4";
        QTest::newRow("crlf") << QString(kGood) + "\r\n" + R"({"id": "b", "prompt": "q", "answer": "4"})" + "\r\n"
                              << "f:2:1: /domain: missing; expected a non-empty string";
        QTest::newRow("duplicate id") << QString(kGood) + "\n" +
                                             R"({"id": "b", "domain": "m", "prompt": "q", "answer": "1"})" + "\n" +
                                             kGood
                                      << "f:3:1: /id: duplicate id \"a\"; first on line 1";
    }

    void badLines()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto result = TaskSet::fromJsonLines(text.toStdString());
        QVERIFY(!result.tasks);
        QCOMPARE(firstProblem(result), expected);
    }

    void notUtf8Bytes()
    {
        // A Latin-1 byte straight in the file (the test above goes through QString).
        const std::string text = "{\"id\": \"caf\xE9\", \"domain\": \"m\", \"prompt\": \"q\", \"answer\": \"1\"}\n";
        const auto result = TaskSet::fromJsonLines(text);
        QVERIFY(!result.tasks);
        QCOMPARE(allProblems(result), QStringList({"f:1:8: syntax error while parsing value - invalid string: "
                                                   "ill-formed UTF-8 byte; last read: '\"caf\\xE9\"'"}));
    }

    void oneGoodLineOneBadLine()
    {
        const auto result = TaskSet::fromJsonLines(std::string(kGood) + "\n{\"id\": \"b\"\n");
        QVERIFY(!result.tasks);
        QCOMPARE(allProblems(result),
                 QStringList({"f:2:11: syntax error while parsing object - unexpected end of input; expected '}'"}));
    }

    void everyBadLineIsReported()
    {
        const std::string text = std::string("[]\n") + kGood + "\n" +
                                 R"({"id": "b", "domain": "math", "prompt": "p"})" + "\n" + "nonsense\n" + kGood + "\n";
        const auto result = TaskSet::fromJsonLines(text);
        QVERIFY(!result.tasks);
        QCOMPARE(allProblems(result),
                 QStringList({"f:1:1: expected a task object with id, domain, prompt and answer, got an array",
                              "f:3:1: /answer: missing; expected a non-empty string",
                              "f:4:2: syntax error while parsing value - invalid literal; last read: 'no'",
                              "f:5:1: /id: duplicate id \"a\"; first on line 2"}));
    }

    void emptyFile_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("nothing") << "";
        QTest::newRow("blank lines") << "\n  \n\t\r\n";
    }

    void emptyFile()
    {
        QFETCH(QString, text);
        const auto result = TaskSet::fromJsonLines(text.toStdString());
        QVERIFY(result.tasks);
        QCOMPARE(result.tasks->tasks().size(), size_t(0));
        QCOMPARE(allProblems(result), QStringList({"f: warning: the file has no tasks"}));
    }

    void warningsKeepTheTasks()
    {
        const std::string text =
            std::string(kGood) + "\n" +
            R"({"id": "b", "domain": "math", "prompt": "What is 2 + 2?", "answer": "4", "level": 1})";
        const auto result = TaskSet::fromJsonLines(text);
        QVERIFY(result.tasks);
        QCOMPARE(
            allProblems(result),
            QStringList({"f:2:1: warning: /level: unknown key; ignored",
                         "f:2:1: warning: /prompt: the same prompt as line 1; a lookup by prompt finds that task"}));
        QCOMPARE(result.tasks->tasks().size(), size_t(2));
        QCOMPARE(QString::fromStdString(result.tasks->byPrompt("What is 2 + 2?")->id), QString("a"));
        QCOMPARE(QString::fromStdString(result.tasks->byId("b")->id), QString("b"));
    }

    void byteOrderMark()
    {
        const auto good = TaskSet::fromJsonLines(std::string("\xEF\xBB\xBF") + kGood);
        QVERIFY(good.tasks);
        QCOMPARE(allProblems(good), QStringList());
        QCOMPARE(good.tasks->tasks().size(), size_t(1));
        // Columns still count the file's bytes.
        const auto bad = TaskSet::fromJsonLines("\xEF\xBB\xBF{\"id\" 1}");
        QCOMPARE(firstProblem(bad), QString("f:1:10: syntax error while parsing object separator - unexpected number "
                                            "literal; expected ':'"));
    }

    void missingFile()
    {
        const auto result = TaskSet::load(CONCLAVE_TEST_DATA "/no-such-tasks.jsonl");
        QVERIFY(!result.tasks);
        QCOMPARE(allProblems(result), QStringList({"f: no such file"}));
    }

    void folderMergesIdenticalTasksAndRefusesConflicts()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string x = R"({"id": "x", "domain": "math", "prompt": "What is 2 + 2?", "answer": "4"})";
        const std::string y = R"({"id": "y", "domain": "facts", "prompt": "Name a colour.", "answer": "red"})";
        writeFile(dir.filePath("b.jsonl"), x + "\n" + y + "\n");
        writeFile(dir.filePath("a.jsonl"), x + "\n");
        writeFile(dir.filePath("notes.txt"), "not a task set");
        const auto merged = TaskSet::loadFolder(dir.path().toStdString());
        QVERIFY(merged.tasks);
        QCOMPARE(allProblems(merged), QStringList());
        QCOMPARE(merged.tasks->tasks().size(), size_t(2));
        QCOMPARE(QString::fromStdString(merged.tasks->tasks()[1].id), QString("y"));

        writeFile(dir.filePath("c.jsonl"),
                  "\n" + std::string(R"({"id": "x", "domain": "math", "prompt": "What is 2 + 2?", "answer": "5"})") +
                      "\n[]\n");
        const auto conflict = TaskSet::loadFolder(dir.path().toStdString());
        QVERIFY(!conflict.tasks);
        QCOMPARE(allProblems(conflict, "D"),
                 QStringList({"D: c.jsonl:2:1: /id: \"x\" is already a different task in a.jsonl:1",
                              "D: c.jsonl:3:1: expected a task object with id, domain, prompt and answer, got an "
                              "array"}));
    }

    void badFolders()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto empty = TaskSet::loadFolder(dir.path().toStdString());
        QVERIFY(!empty.tasks);
        QCOMPARE(allProblems(empty, "D"), QStringList({"D: the folder has no *.jsonl files"}));

        const auto missing = TaskSet::loadFolder(dir.filePath("nowhere").toStdString());
        QVERIFY(!missing.tasks);
        QCOMPARE(allProblems(missing, "D"), QStringList({"D: cannot read the folder: No such file or directory"}));
    }

    void mergeKeepsExistingIds()
    {
        auto first = tasksOf(R"({"id": "x", "domain": "math", "prompt": "What is 2 + 2?", "answer": "4"})");
        const auto second =
            tasksOf(std::string(R"({"id": "x", "domain": "math", "prompt": "Other?", "answer": "5"})") + "\n" +
                    R"({"id": "y", "domain": "facts", "prompt": "Name a colour.", "answer": "red"})");
        first.merge(second);
        QCOMPARE(first.tasks().size(), size_t(2));
        QCOMPARE(QString::fromStdString(first.byId("x")->answer), QString("4"));
        QVERIFY(first.byPrompt("Other?") == nullptr);
        QCOMPARE(QString::fromStdString(first.find("Please: Name a colour.")->id), QString("y"));
    }
};

QTEST_GUILESS_MAIN(TestTaskSet)
#include "tst_taskset.moc"
