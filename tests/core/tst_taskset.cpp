// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets, and Problem.h reaches it through StrongId.h.
#include <QtTest>

#include "conclave/local/TaskSet.h"
#include "support/TaskSetProblems.h"

#include <QDir>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <map>

using namespace conclave;
using testsupport::allProblems;
using testsupport::firstProblem;

namespace {

const char* const kGood = R"({"id": "a", "domain": "math", "prompt": "What is 2 + 2?", "answer": "4"})";

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
                                       << "f:1:1: expected a task object with at least id and prompt, got an array";
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
        QTest::newRow("missing prompt") << R"({"id": "a", "answer": "4"})"
                                        << "f:1:1: /prompt: missing; expected a non-empty string";
        QTest::newRow("empty answer") << R"({"id": "a", "prompt": "p", "answer": ""})"
                                      << "f:1:1: /answer: expected a non-empty string, got \"\"";
        QTest::newRow("negative tolerance") << R"({"id": "a", "prompt": "p", "answer": "4", "tolerance": -0.5})"
                                            << "f:1:1: /tolerance: expected a number ≥ 0, got -0.5";
        QTest::newRow("tolerance a string") << R"({"id": "a", "prompt": "p", "answer": "4", "tolerance": "abc"})"
                                            << "f:1:1: /tolerance: expected a number ≥ 0, got \"abc\"";
        QTest::newRow("tolerance a numeric string")
            << R"({"id": "a", "prompt": "p", "answer": "4", "tolerance": "0.5"})"
            << "f:1:1: /tolerance: expected a number ≥ 0, got \"0.5\"";
        QTest::newRow("tolerance null") << R"({"id": "a", "prompt": "p", "answer": "4", "tolerance": null})"
                                        << "f:1:1: /tolerance: expected a number ≥ 0, got null";
        QTest::newRow("tolerance, answer not a number")
            << R"({"id": "a", "prompt": "p", "answer": "paris", "tolerance": 1})"
            << "f:1:1: /tolerance: needs a numeric answer, got \"paris\"";
        QTest::newRow("tolerance, answer a decimal comma")
            << R"({"id": "a", "prompt": "p", "answer": "1,5", "tolerance": 0})"
            << "f:1:1: /tolerance: needs a numeric answer, got \"1,5\"";
        QTest::newRow("tolerance, no answer") << R"({"id": "a", "prompt": "p", "tolerance": 1})"
                                              << "f:1:1: /tolerance: needs a numeric answer, got none";
        QTest::newRow("tolerance too large") << R"({"id": "a", "prompt": "p", "answer": "4", "tolerance": 1e999})"
                                             << "f:1:56: number overflow parsing '1e999'";
        QTest::newRow("difficulty out of range") << R"({"id": "a", "prompt": "p", "answer": "4", "difficulty": 6})"
                                                 << "f:1:1: /difficulty: expected a number from -5 to 5, got 6";
        QTest::newRow("difficulty a string") << R"({"id": "a", "prompt": "p", "difficulty": "hard"})"
                                             << "f:1:1: /difficulty: expected a number from -5 to 5, got \"hard\"";
        QTest::newRow("line numbers count blank lines")
            << QString(kGood) + "\n\n   \n" + R"({"id": "b", "domain": "math", "prompt": "q", "answer": 4})"
            << "f:4:1: /answer: expected a non-empty string, got 4";
        QTest::newRow("crlf") << QString(kGood) + "\r\n" + R"({"id": "b", "domain": "m", "answer": "4"})" + "\r\n"
                              << "f:2:1: /prompt: missing; expected a non-empty string";
        QTest::newRow("nested 257 deep") << QString(kGood) + "\n" + R"({"id": "b", "prompt": "q", "x": )" +
                                                QString(256, '[') + QString(256, ']') + "}"
                                         << "f:2:288: nesting is deeper than 256 levels";
        QTest::newRow("nested 100,000 deep") << QString(100000, '{') << "f:1:257: nesting is deeper than 256 levels";
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
                                 R"({"id": "b", "domain": "math", "answer": "4"})" + "\n" + "nonsense\n" + kGood + "\n";
        const auto result = TaskSet::fromJsonLines(text);
        QVERIFY(!result.tasks);
        QCOMPARE(allProblems(result),
                 QStringList({"f:1:1: expected a task object with at least id and prompt, got an array",
                              "f:3:1: /prompt: missing; expected a non-empty string",
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
            QStringList({"f:2:1: warning: /level: kept as task metadata",
                         "f:2:1: warning: /prompt: the same prompt as line 1; a lookup by prompt finds that task"}));
        QCOMPARE(result.tasks->tasks().size(), size_t(2));
        QCOMPARE(QString::fromStdString(result.tasks->byPrompt("What is 2 + 2?")->id), QString("a"));
        QCOMPARE(QString::fromStdString(result.tasks->byId("b")->id), QString("b"));
    }

    void optionalFieldsAndMetadata()
    {
        const std::string text =
            std::string(R"({"id": "a", "prompt": "Write a haiku."})") + "\n" +
            R"({"zeta": "z", "id": "b", "prompt": "p", "answer": "1,027", "tolerance": 0.5, "level": 3, )"
            R"("tags": ["x", "y"], "extra": {"b": 1, "a": [true, null]}, "note": null, "ratio": 0.25})" +
            "\n" + R"({"id": "c", "domain": "facts", "prompt": "q", "choices": ["x", "y"], "difficulty": -1.5})";
        const auto result = TaskSet::fromJsonLines(text);
        QVERIFY(result.tasks);
        QCOMPARE(
            allProblems(result),
            QStringList(
                {"f:2:1: warning: /zeta: kept as task metadata", "f:2:1: warning: /level: kept as task metadata",
                 "f:2:1: warning: /tags: kept as task metadata", "f:2:1: warning: /extra: kept as task metadata",
                 "f:2:1: warning: /note: kept as task metadata", "f:2:1: warning: /ratio: kept as task metadata"}));
        const auto& tasks = result.tasks->tasks();
        QCOMPARE(tasks.size(), size_t(3));
        QVERIFY((tasks[0] == Task{.id = "a", .domain = "general", .prompt = "Write a haiku."}));
        const std::vector<std::pair<std::string, std::string>> metadata{
            {"zeta", "z"},    {"level", "3"},   {"tags", R"(["x","y"])"}, {"extra", R"({"b":1,"a":[true,null]})"},
            {"note", "null"}, {"ratio", "0.25"}};
        QVERIFY(tasks[1] == (Task{.id = "b",
                                  .domain = "general",
                                  .prompt = "p",
                                  .answer = "1,027",
                                  .tolerance = 0.5,
                                  .metadata = metadata}));
        QVERIFY(tasks[2] ==
                (Task{.id = "c", .domain = "facts", .prompt = "q", .choices = {"x", "y"}, .difficulty = -1.5}));
        // The same in CSV.
        const auto csv = TaskSet::fromCsv("id,prompt,difficulty\na,p,1.25\nb,q,\n");
        QVERIFY(csv.tasks);
        QCOMPARE(csv.tasks->tasks()[0].difficulty, std::optional<double>(1.25));
        QCOMPARE(csv.tasks->tasks()[1].difficulty, std::optional<double>());
    }

    void loadPicksTheFormatByExtension()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string csv = "id,prompt,answer\na,What is 2 + 2?,4\n";
        writeFile(dir.filePath("set.csv"), csv);
        writeFile(dir.filePath("SET.CSV"), csv);
        writeFile(dir.filePath("set.txt"), kGood);
        writeFile(dir.filePath("csv-as.jsonl"), csv);
        const Task expected{.id = "a", .domain = "general", .prompt = "What is 2 + 2?", .answer = "4"};
        for (const char* name : {"set.csv", "SET.CSV"}) {
            const auto result = TaskSet::load(dir.filePath(name).toStdString());
            QVERIFY2(result.tasks, name);
            QCOMPARE(allProblems(result), QStringList());
            QVERIFY(result.tasks->tasks() == std::vector<Task>{expected});
        }
        const auto text = TaskSet::load(dir.filePath("set.txt").toStdString());
        QVERIFY(text.tasks);
        QCOMPARE(text.tasks->tasks().size(), size_t(1));
        const auto jsonl = TaskSet::load(dir.filePath("csv-as.jsonl").toStdString());
        QVERIFY(!jsonl.tasks);
        QCOMPARE(firstProblem(jsonl),
                 QString("f:1:1: syntax error while parsing value - invalid literal; last read: 'i'"));
    }

    void contentHashIsTheContent()
    {
        // Not raw strings: moc 6.4 loses the class at a \" inside one.
        const std::string jsonl =
            "{\"id\": \"m1\", \"prompt\": \"What is 1,000 + 27?\", \"answer\": \"1027\", \"domain\": \"math\", "
            "\"tolerance\": 0.5, \"source\": \"gsm8k\"}\n"
            "{\"id\": \"c1\", \"prompt\": \"Pick one:\\n\\\"red\\\" or blue?\", \"answer\": \"red\", "
            "\"choices\": [\"red\", \"blue\"], \"notes\": \"multi\\nline\"}\n"
            "{\"id\": \"w1\", \"prompt\": \"Write a haiku.\", \"domain\": \"writing\"}\n";
        const std::string csv = "id,prompt,answer,domain,choices,tolerance,source,notes\n"
                                "m1,\"What is 1,000 + 27?\",1027,math,,0.5,gsm8k,\n"
                                "c1,\"Pick one:\n\"\"red\"\" or blue?\",red,,red|blue,,,\"multi\r\nline\"\n"
                                "w1,Write a haiku.,,writing,,,,\n";
        const auto fromJsonl = TaskSet::fromJsonLines(jsonl);
        const auto fromCsv = TaskSet::fromCsv(csv);
        QVERIFY(fromJsonl.tasks && fromCsv.tasks);
        QVERIFY(fromJsonl.tasks->tasks() == fromCsv.tasks->tasks());
        const auto hash = fromJsonl.tasks->contentHash();
        QCOMPARE(QString::fromStdString(hash), QString("34c4dc0def18762a"));
        QCOMPARE(fromCsv.tasks->contentHash(), hash);
        QCOMPARE(QString::fromStdString(TaskSet().contentHash()), QString("c3817c016ba4ff30"));

        // Any edit, however small, changes it, and no two edits collide.
        const auto base = fromJsonl.tasks->tasks();
        const auto hashOf = [](const std::vector<Task>& tasks) {
            const auto text = TaskSet::toJsonl(tasks);
            const auto set = TaskSet::fromJsonLines(text);
            if (!set.tasks || set.tasks->tasks() != tasks)
                qFatal("edited tasks do not load back");
            return set.tasks->contentHash();
        };
        QCOMPARE(hashOf(base), hash);
        std::vector<std::pair<const char*, std::function<void(std::vector<Task>&)>>> edits{
            {"id", [](auto& t) { t[0].id = "m2"; }},
            {"domain", [](auto& t) { t[0].domain = "general"; }},
            {"prompt", [](auto& t) { t[2].prompt += " "; }},
            {"answer", [](auto& t) { t[1].answer = "blue"; }},
            {"answer added", [](auto& t) { t[2].answer = "x"; }},
            {"prompt into answer",
             [](auto& t) {
                 t[2].prompt = "Write a haiku";
                 t[2].answer = ".";
             }},
            {"choice order",
             [](auto& t) {
                 t[1].choices = {"blue", "red"};
             }},
            {"choice added", [](auto& t) { t[1].choices.push_back("green"); }},
            {"tolerance", [](auto& t) { t[0].tolerance = 0.25; }},
            {"tolerance zero", [](auto& t) { t[0].tolerance = 0; }},
            {"difficulty", [](auto& t) { t[0].difficulty = 1.5; }},
            {"difficulty zero", [](auto& t) { t[0].difficulty = 0; }},
            {"tolerance removed", [](auto& t) { t[0].tolerance.reset(); }},
            {"metadata value", [](auto& t) { t[0].metadata[0].second = "gsm8k "; }},
            {"metadata key", [](auto& t) { t[0].metadata[0].first = "origin"; }},
            {"metadata added", [](auto& t) { t[2].metadata.emplace_back("level", "3"); }},
            {"metadata moved",
             [](auto& t) {
                 t[1].metadata.push_back(t[0].metadata[0]);
                 t[0].metadata.clear();
             }},
            {"order", [](auto& t) { std::swap(t[0], t[2]); }},
            {"task removed", [](auto& t) { t.pop_back(); }},
        };
        std::map<std::string, std::string> seen{{hash, "the original"}};
        for (const auto& [name, edit] : edits) {
            auto tasks = base;
            edit(tasks);
            const auto edited = hashOf(tasks);
            QCOMPARE(QString::fromStdString(edited).size(), 16);
            const auto [where, fresh] = seen.emplace(edited, name);
            QVERIFY2(fresh, qPrintable(QString("%1 hashes like %2").arg(name, where->second.c_str())));
        }
    }

    void parseNumber_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<double>("value");
        QTest::newRow("integer") << "1027" << true << 1027.0;
        QTest::newRow("plus") << "+5" << true << 5.0;
        QTest::newRow("minus") << "-3.5" << true << -3.5;
        QTest::newRow("unicode minus") << "\u22122" << true << -2.0;
        QTest::newRow("thousands") << "1,027" << true << 1027.0;
        QTest::newRow("thousands, fraction") << "-12,345.5" << true << -12345.5;
        QTest::newRow("millions") << "1,234,567" << true << 1234567.0;
        QTest::newRow("leading point") << ".5" << true << 0.5;
        QTest::newRow("trailing point") << "5." << true << 5.0;
        QTest::newRow("exponent") << "1e3" << true << 1000.0;
        QTest::newRow("exponent, sign") << "1.5E-3" << true << 0.0015;
        QTest::newRow("zeros") << "007" << true << 7.0;
        for (const char* bad : {"",         "+",   "-",     ".",   "1,5",  "1,0270", "12345,678", ",123",  "1,,000",
                                "1,000,00", "abc", "inf",   "nan", "0x10", "1e",     "1e+",       "1e400", "5 apples",
                                "$5",       "5%",  "1.2.3", " 5",  "5 ",   "--5",    "+-5",       "1_000", "e5"})
            QTest::newRow(bad[0] ? bad : "empty") << QString(bad) << false << 0.0;
    }

    void parseNumber()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(double, value);
        const auto number = TaskSet::parseNumber(text.toStdString());
        QCOMPARE(number.has_value(), valid);
        if (valid)
            QVERIFY2(*number == value, qPrintable(QString::number(*number, 'g', 17)));
    }

    void bundled()
    {
        const std::filesystem::path resources = CONCLAVE_RESOURCES;
        QCOMPARE(TaskSet::bundled(resources, "math"), std::optional(resources / "tasksets" / "math.jsonl"));
        QCOMPARE(TaskSet::bundled(resources, "mixed-small"),
                 std::optional(resources / "tasksets" / "mixed-small.jsonl"));
        for (const char* name : {"", "nope", "math.jsonl", "../tasksets/math", "tasksets/math", ".math", "MATH "})
            QVERIFY2(!TaskSet::bundled(resources, name), name);
        QVERIFY(!TaskSet::bundled(resources / "nowhere", "math"));
        QCOMPARE(TaskSet::bundledNames(resources),
                 std::vector<std::string>({"code", "facts", "math", "mixed-small", "reasoning", "writing"}));
        QCOMPARE(TaskSet::bundledNames(resources / "nowhere"), std::vector<std::string>());

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath("tasksets/sub.jsonl"));
        writeFile(dir.filePath("tasksets/b.jsonl"), kGood);
        writeFile(dir.filePath("tasksets/a.csv"), "id,prompt\na,q\n");
        writeFile(dir.filePath("tasksets/.hidden.jsonl"), kGood);
        const std::filesystem::path root = dir.path().toStdString();
        QCOMPARE(TaskSet::bundledNames(root), std::vector<std::string>({"b"}));
        QVERIFY(!TaskSet::bundled(root, "a"));
        QVERIFY(!TaskSet::bundled(root, "sub"));
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
                              "D: c.jsonl:3:1: expected a task object with at least id and prompt, got an array"}));
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
