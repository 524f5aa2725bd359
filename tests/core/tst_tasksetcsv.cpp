// TaskSet's CSV reader (core/conclave/local/TaskSetCsv.cpp): columns, quoting,
// byte-order marks, exact errors by row and column, and the 1 MiB field limit.
// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets, and Problem.h reaches it through StrongId.h.
#include <QtTest>

#include "conclave/local/TaskSet.h"
#include "support/TaskSetProblems.h"

#include <string>

using namespace conclave;
using testsupport::allProblems;
using testsupport::firstProblem;

class TestTaskSetCsv : public QObject {
    Q_OBJECT

private slots:
    void csvReads()
    {
        const std::string text = "\xEF\xBB\xBFid,prompt,answer,domain,choices,tolerance,source,notes\r\n"
                                 "m1,\"What is 1,000 + 27?\", 1027 ,math,,0.5,gsm8k,\r\n"
                                 "c1,\"Pick one:\r\n\"\"red\"\" or blue?\",red,,red | blue,,,\"multi\nline\"\r\n"
                                 "\r\n"
                                 "w1,  Write a haiku.,,writing,,,, \r\n"
                                 "t1,Round 2.4,2,,, \"1,000\" ,,";
        const auto result = TaskSet::fromCsv(text);
        QVERIFY2(result.tasks, qPrintable(firstProblem(result)));
        QCOMPARE(allProblems(result), QStringList({"f:1:46: warning: source: kept as task metadata",
                                                   "f:1:53: warning: notes: kept as task metadata"}));
        const std::vector<Task> expected{
            {.id = "m1",
             .domain = "math",
             .prompt = "What is 1,000 + 27?",
             .answer = "1027",
             .tolerance = 0.5,
             .metadata = {{"source", "gsm8k"}}},
            {.id = "c1",
             .domain = "general",
             .prompt = "Pick one:\n\"red\" or blue?",
             .answer = "red",
             .choices = {"red", "blue"},
             .metadata = {{"notes", "multi\nline"}}},
            {.id = "w1", .domain = "writing", .prompt = "  Write a haiku.", .metadata = {{"notes", " "}}},
            {.id = "t1", .domain = "general", .prompt = "Round 2.4", .answer = "2", .tolerance = 1000},
        };
        QCOMPARE(result.tasks->tasks().size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i)
            QVERIFY2(result.tasks->tasks()[i] == expected[i], expected[i].id.c_str());
        QCOMPARE(result.tasks->byPrompt("Pick one:\n\"red\" or blue?"), &result.tasks->tasks()[1]);
    }

    void csvErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("empty file") << QByteArray("")
                                    << QStringList{"f:1:1: the file is empty; expected a header row naming at least "
                                                   "the columns id and prompt"};
        QTest::newRow("blank lines only") << QByteArray("\xEF\xBB\xBF\r\n \n")
                                          << QStringList{"f:1:1: the file is empty; expected a header row naming at "
                                                         "least the columns id and prompt"};
        QTest::newRow("difficulty") << QByteArray("id,prompt,difficulty\na,p,-7\nb,q,hard\n")
                                    << QStringList{"f:2:5: difficulty: expected a number from -5 to 5, got \"-7\"",
                                                   "f:3:5: difficulty: expected a number from -5 to 5, got \"hard\""};
        QTest::newRow("no id column") << QByteArray("prompt,answer\nq,4\n")
                                      << QStringList{"f:1:1: the header has no id column"};
        QTest::newRow("no id or prompt column")
            << QByteArray("\n\nanswer,level\n4,1\n")
            << QStringList{"f:3:8: warning: level: kept as task metadata", "f:3:1: the header has no id column",
                           "f:3:1: the header has no prompt column"};
        QTest::newRow("unnamed column") << QByteArray("id,prompt,\na,q,\n")
                                        << QStringList{"f:1:11: column 3 has no name"};
        QTest::newRow("unnamed column after a BOM")
            << QByteArray("\xEF\xBB\xBFid,prompt, \na,q,\n") << QStringList{"f:1:14: column 3 has no name"};
        QTest::newRow("column named twice") << QByteArray("id,prompt, id\na,q,b\n")
                                            << QStringList{"f:1:11: id: a second column of that name; the first "
                                                           "is column 1"};
        QTest::newRow("too many fields") << QByteArray("id,prompt\na,q,extra\n")
                                         << QStringList{"f:2:1: expected 2 fields, one per column of the header, "
                                                        "got 3"};
        QTest::newRow("too few fields") << QByteArray("id,prompt,answer\r\na,q\r\n")
                                        << QStringList{"f:2:1: expected 3 fields, one per column of the header, "
                                                       "got 2"};
        QTest::newRow("empty prompt") << QByteArray("id,prompt\na,\n")
                                      << QStringList{"f:2:3: prompt: expected a non-empty string, got \"\""};
        QTest::newRow("empty id") << QByteArray("id,prompt\n  ,q\n")
                                  << QStringList{"f:2:1: id: expected a non-empty string, got \"\""};
        QTest::newRow("blank lines count") << QByteArray("id,prompt\n\n\r\na,\n")
                                           << QStringList{"f:4:3: prompt: expected a non-empty string, got \"\""};
        QTest::newRow("duplicate id") << QByteArray("id,prompt\na,q\nb,r\n a ,s\n")
                                      << QStringList{"f:4:1: id: duplicate id \"a\"; first on line 2"};
        QTest::newRow("lines span quoted fields")
            << QByteArray("id,prompt,answer\n\"a\",\"two\nlines\",\"and\r\nthree\"\n\"a\",s,\n")
            << QStringList{"f:5:1: id: duplicate id \"a\"; first on line 2"};
        QTest::newRow("bad tolerance") << QByteArray("id,prompt,answer,tolerance\na,q,4,abc\n")
                                       << QStringList{"f:2:7: tolerance: expected a number ≥ 0, got \"abc\""};
        QTest::newRow("negative tolerance") << QByteArray("id,prompt,answer,tolerance\na,q,4, -1\n")
                                            << QStringList{"f:2:7: tolerance: expected a number ≥ 0, got \"-1\""};
        QTest::newRow("tolerance, answer not a number")
            << QByteArray("id,prompt,answer,tolerance\na,q,paris,0.5\n")
            << QStringList{"f:2:11: tolerance: needs a numeric answer, got \"paris\""};
        QTest::newRow("tolerance, no answer") << QByteArray("id,prompt,answer,tolerance\na,q,,0.5\n")
                                              << QStringList{"f:2:6: tolerance: needs a numeric answer, got none"};
        QTest::newRow("answer not a choice") << QByteArray("id,prompt,answer,choices\na,q,z,x|y\n")
                                             << QStringList{"f:2:5: answer: \"z\" is not one of the choices"};
        QTest::newRow("empty choice") << QByteArray("id,prompt,choices\na,q,x||y\n")
                                      << QStringList{"f:2:5: choices: expected a non-empty string, got \"\""};
        QTest::newRow("duplicate choice")
            << QByteArray("id,prompt,choices\na,q,x|y| x\n") << QStringList{"f:2:5: choices: duplicate choice \"x\""};
        QTest::newRow("empty domain is the default, a bad answer is not")
            << QByteArray("id,domain,prompt,answer,choices\na,,q,\"x\",\"y|z\"\n")
            << QStringList{"f:2:6: answer: \"x\" is not one of the choices"};
        QTest::newRow("unterminated quote")
            << QByteArray("id,prompt\na,q\nb,  \"open\nstill open\nc,r\n")
            << QStringList{"f:3:5: a quoted field begins here and has no closing quote"};
        QTest::newRow("quote in an unquoted field")
            << QByteArray("id,prompt\na,say \"hi\"\n")
            << QStringList{"f:2:7: a quote inside an unquoted field; quote the whole field and double the quote"};
        QTest::newRow("text after a closing quote")
            << QByteArray("id,prompt\na,\"hi\" there\n")
            << QStringList{"f:2:8: text after a closing quote; a quote inside a quoted field is doubled"};
        QTest::newRow("not UTF-8") << QByteArray("id,prompt\na,caf\xE9\n")
                                   << QStringList{"f:2:6: the byte \\xE9 is not UTF-8; save the file as UTF-8"};
        QTest::newRow("every bad row is reported")
            << QByteArray("id,prompt,tolerance\na,,x\nb,q,1\nb,r,\nc\nd,s,\n")
            << QStringList{"f:2:3: prompt: expected a non-empty string, got \"\"",
                           "f:2:4: tolerance: expected a number ≥ 0, got \"x\"",
                           "f:3:5: tolerance: needs a numeric answer, got none",
                           "f:5:1: expected 3 fields, one per column of the header, got 1"};
        // A field holds at most 1 MiB (kMaxCsvFieldBytes); the first longer one stops the reading.
        const auto bytes = [](const std::string& s) { return QByteArray(s.data(), qsizetype(s.size())); };
        const std::string over(1048577, 'x');
        QTest::newRow("a field over 1 MiB")
            << bytes("id,prompt\na," + over + "\nb,\"\"\"\n")
            << QStringList{"f:2:3: row 2, column 2 (prompt): the field is 1048577 bytes long; the limit is 1048576"};
        QTest::newRow("a quoted field over 1 MiB, across lines, after a blank line")
            << bytes("id,prompt,answer\na,q,4\n\nb, \"" + std::string(1048575, 'y') + "\r\n\"\"\",5\n")
            << QStringList{"f:4:3: row 3, column 2 (prompt): the field is 1048577 bytes long; the limit is 1048576"};
        QTest::newRow("a header name over 1 MiB")
            << bytes("id,prompt," + over + "\na,q,\n")
            << QStringList{"f:1:11: row 1, column 3: the field is 1048577 bytes long; the limit is 1048576"};
    }

    void csvFieldOfOneMebibyte()
    {
        const std::string prompt(1048576, 'p');
        const auto result = TaskSet::fromCsv("id,prompt\na,\"" + prompt + "\"\n");
        QCOMPARE(allProblems(result), QStringList());
        QVERIFY(result.tasks);
        QCOMPARE(result.tasks->tasks().size(), size_t(1));
        QCOMPARE(result.tasks->tasks().front().prompt.size(), size_t(1048576));
    }

    void csvErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, expected);
        const auto result = TaskSet::fromCsv(std::string_view(text.constData(), size_t(text.size())));
        QVERIFY(!result.tasks);
        QCOMPARE(allProblems(result), expected);
    }

    void csvWithoutRows()
    {
        const auto result = TaskSet::fromCsv("id,prompt,answer\r\n\r\n");
        QVERIFY(result.tasks);
        QCOMPARE(result.tasks->tasks().size(), size_t(0));
        QCOMPARE(allProblems(result), QStringList({"f: warning: the file has no tasks"}));
    }

    void csvWarningsKeepTheTasks()
    {
        const auto result = TaskSet::fromCsv("id,prompt,Answer\na,\"What is\n2 + 2?\",4\nb,\"What is\n2 + 2?\",\n");
        QVERIFY(result.tasks);
        QCOMPARE(
            allProblems(result),
            QStringList({"f:1:11: warning: Answer: kept as task metadata",
                         "f:4:3: warning: prompt: the same prompt as line 2; a lookup by prompt finds that task"}));
        QCOMPARE(result.tasks->tasks().size(), size_t(2));
        QVERIFY(result.tasks->tasks()[0].answer.empty());
        QVERIFY(
            (result.tasks->tasks()[0].metadata == std::vector<std::pair<std::string, std::string>>{{"Answer", "4"}}));
        QVERIFY(result.tasks->tasks()[1].metadata.empty());
    }
};

QTEST_GUILESS_MAIN(TestTaskSetCsv)
#include "tst_tasksetcsv.moc"
