// `conclave run` end to end: exit codes, the JSON it prints, tasks, budgets, Ctrl+C.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "support/CliProcess.h"
#include "support/TerminalProcess.h"

#include <csignal>

namespace {

using Result = testsupport::CliResult;

const QString kBinary = QStringLiteral(CONCLAVE_BIN_DIR "/conclave");
const QString kExamples = QStringLiteral(CONCLAVE_RESOURCES "/examples/");

Result conclave(const QStringList& args)
{
    return testsupport::runConclave(args);
}

QJsonObject json(const Result& r)
{
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

} // namespace

class TestCliRun : public QObject {
    Q_OBJECT

private slots:
    void runTaskAsJson()
    {
        const QStringList args{"run", kExamples + "keyword-vote.team.json", "--task", "math-001", "--json",
                               "--time-scale", "0.01"};
        const auto first = conclave(args);
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.err, QString());
        const auto run = json(first);
        QVERIFY(run.value("status").toString() == "ok" || run.value("status").toString() == "partial");
        QCOMPARE(run.value("task").toString(), QString("math-001"));
        QVERIFY(run.value("correct").isBool());
        QCOMPARE(run.value("correct").toBool(), run.value("answer").toString() == "783");
        QCOMPARE(run.value("run_id").toString().size(), 12);
        const QStringList keys{
            "run_id",        "status",   "output", "answer",    "confidence", "wall_ms", "critical_path_ms",
            "critical_path", "cost_usd", "tokens", "tokens_in", "tokens_out", "calls",   "clock",
            "cpu_ms",        "spans",    "task",   "correct"};
        QCOMPARE(run.keys().size(), keys.size());
        for (const auto& key : keys)
            QVERIFY2(run.contains(key), qPrintable(key));
        // --time-scale without --clock: the real clock, as before there was a choice.
        QCOMPARE(run.value("clock").toString(), QString("real"));
        const auto spans = run.value("spans").toArray();
        QVERIFY(spans.size() >= 6);  // five nodes that ran (one expert is skipped), at least one attempt
        for (const auto& value : spans) {
            const auto span = value.toObject();
            for (const auto* key : {"node", "kind", "name", "parent", "start_ms", "end_ms", "status", "attempt",
                                    "round", "model", "tokens_in", "tokens_out", "cost_usd"})
                QVERIFY2(span.contains(key), key);
        }
        QCOMPARE(run.value("critical_path").toArray().first().toString(), QString("in"));
        QCOMPARE(run.value("critical_path").toArray().last().toString(), QString("out"));

        // The same team, task and seed: the same answer, tokens and cost.
        const auto second = json(conclave(args));
        QCOMPARE(second.value("answer"), run.value("answer"));
        QCOMPARE(second.value("tokens"), run.value("tokens"));
        QCOMPARE(second.value("cost_usd"), run.value("cost_usd"));
        QVERIFY(second.value("run_id") != run.value("run_id"));
    }

    void humanOutput()
    {
        const auto r = conclave({"run", kExamples + "triage.team.json", "--input",
                                 "Calculate 323 + 460. And what is the capital city of France?", "--time-scale",
                                 "0.01", "--seed", "1"});
        QCOMPARE(r.exitCode, 0);
        const auto lines = r.out.split('\n');
        QVERIFY(lines.first().startsWith("run "));
        QVERIFY(lines.first().contains(": ok  (wall ") || lines.first().contains(": partial  (wall "));
        QVERIFY(lines.contains("critical path: in -> intake -> planner -> merge -> out"));
        QVERIFY(r.out.contains(QRegularExpression("\\nplanner +ok +[1-9] ")));
    }

    // The tasks on which the triage example never ended: its decompose meeting
    // sits behind the `compound` route, and a single question skipped it.
    void triageEndsOnTheTasksItHungOn_data()
    {
        QTest::addColumn<QString>("task");
        for (const char* task : {"math-002", "code-003", "code-004", "writing-002", "reasoning-002"})
            QTest::newRow(task) << QString::fromLatin1(task);
        QTest::newRow("the README's question") << QString();
    }
    void triageEndsOnTheTasksItHungOn()
    {
        QFETCH(QString, task);
        QStringList args{"run", kExamples + "triage.team.json", "--json", "--time-scale", "0.01"};
        args << (task.isEmpty() ? QStringList{"--input", "What is 2 + 2?"} : QStringList{"--task", task});
        const auto r = conclave(args); // the helper kills a process that runs past its limit
        QCOMPARE(r.err, QString());
        const auto run = json(r);
        QVERIFY2(QStringList({"ok", "partial"}).contains(run.value("status").toString()), qPrintable(r.out));
        QCOMPARE(r.exitCode, 0);
        for (const auto& value : run.value("spans").toArray()) {
            const auto span = value.toObject();
            QVERIFY2(span.value("status").toString() != "running", qPrintable(span.value("node").toString()));
            QVERIFY(span.value("end_ms").toDouble() >= span.value("start_ms").toDouble());
        }
        // The router takes one route: the gate or the meeting, never both.
        QStringList ran;
        for (const auto& value : run.value("spans").toArray()) {
            const auto span = value.toObject();
            if (span.value("kind").toString() == "node")
                ran << span.value("node").toString();
        }
        QVERIFY2(ran.contains("gate") != ran.contains("planner"), qPrintable(ran.join(' ')));
        QCOMPARE(ran.last(), QString("out"));
    }

    // 60,000 nested brackets overflowed the arithmetic reader's stack (exit
    // 139). Past 64 levels the text is no arithmetic: the "calculate" route
    // sends it to the math expert, which answers it as a free prompt.
    void sixtyThousandBracketsAreAFreePrompt()
    {
        const QString input = "Calculate " + QString(60000, '(') + '1' + QString(60000, ')');
        const auto r = conclave({"run", kExamples + "keyword-vote.team.json", "--input", input, "--json", "--clock",
                                 "virtual", "--seed", "7"});
        QCOMPARE(r.err, QString());
        QCOMPARE(r.exitCode, 0);
        const auto run = json(r);
        QCOMPARE(run.value("status").toString(), QString("ok"));
        QCOMPARE(run.value("answer").toString(), QString("the first approach is the better choice here"));
        QStringList ran;
        for (const auto& value : run.value("spans").toArray()) {
            const auto span = value.toObject();
            if (span.value("kind").toString() == "node")
                ran << span.value("node").toString() + ' ' + span.value("status").toString();
        }
        QCOMPARE(ran, QStringList({"in ok", "route ok", "math ok", "vote ok", "out ok"}));
    }

    // A broadcast router whose edges carry no route label fires both of them.
    void broadcastRouterWithoutLabels()
    {
        const auto r = conclave({"run", QStringLiteral(CONCLAVE_TEST_DATA "/teams/broadcast.team.json"), "--input",
                                 "What is 2 + 2?", "--json", "--time-scale", "0.01"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        const auto run = json(r);
        QCOMPARE(run.value("status").toString(), QString("ok"));
        QCOMPARE(run.value("calls").toInt(), 2);
        QStringList nodes;
        for (const auto& value : run.value("spans").toArray()) {
            const auto span = value.toObject();
            if (span.value("kind").toString() == "node")
                nodes << span.value("node").toString() + ' ' + span.value("status").toString();
        }
        nodes.sort();
        QCOMPARE(nodes, QStringList({"fanout ok", "general ok", "in ok", "math ok", "out ok", "vote ok"}));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("err");
        QTest::newRow("no input") << QStringList{"run", kExamples + "cascade.team.json"}
                                  << "run: give the input with --input TEXT, or a task with --task ID\n";
        QTest::newRow("unknown task") << QStringList{"run", kExamples + "cascade.team.json", "--task", "nope"}
                                      << "conclave: no task with id \"nope\"\n";
        QTest::newRow("missing team") << QStringList{"run", "/nonexistent/x.team.json", "--input", "hi"}
                                      << "/nonexistent/x.team.json: no such file\n";
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, err);
        const auto r = conclave(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, err);
        QCOMPARE(r.out, QString());
    }

    void budgetExhaustedExitsOne()
    {
        QTemporaryDir dir;
        QFile in(kExamples + "mixture-of-agents.team.json");
        QVERIFY(in.open(QIODevice::ReadOnly));
        auto team = QJsonDocument::fromJson(in.readAll()).object();
        team["budget"] = QJsonObject{{"max_tokens", 1}};
        const QString path = dir.filePath("tight.team.json");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(team).toJson());
        out.close();
        const auto r = conclave({"run", path, "--input", "Calculate 323 + 460.", "--json", "--time-scale", "0.01"});
        QCOMPARE(r.exitCode, 1);
        const auto run = json(r);
        QCOMPARE(run.value("status").toString(), QString("budget_exhausted"));
        // The three first-layer calls went out together; nothing after them did.
        QCOMPARE(run.value("calls").toInt(), 3);
    }

    // Local-only teams run on the virtual clock unless told otherwise: simulated
    // time, exact and repeatable, stored and printed as such.
    void theVirtualClockByDefault()
    {
        QTemporaryDir dir;
        const QStringList args{"run",
                               kExamples + "triage.team.json",
                               "--input",
                               "Calculate 323 + 460. And what is the capital city of France?",
                               "--json",
                               "--db",
                               dir.filePath("runs.sqlite")};
        const auto first = conclave(args);
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.err, QString());
        const auto a = json(first);
        QCOMPARE(a.value("clock").toString(), QString("virtual"));
        QVERIFY(a.value("cpu_ms").toDouble() > 0);
        // 3.37 s of simulated latency (the router sends it down the gate), reported as it was simulated...
        QCOMPARE(a.value("wall_ms").toDouble(), 3374.69);
        // ...and exactly the same again, span for span.
        auto explicitly = args;
        explicitly << "--clock"
                   << "virtual";
        const auto b = json(conclave(explicitly));
        QCOMPARE(b.value("clock").toString(), QString("virtual"));
        QCOMPARE(b.value("wall_ms").toDouble(), a.value("wall_ms").toDouble());
        QCOMPARE(b.value("spans").toArray().size(), a.value("spans").toArray().size());
        for (qsizetype i = 0; i < a.value("spans").toArray().size(); ++i) {
            const auto sa = a.value("spans").toArray()[i].toObject();
            const auto sb = b.value("spans").toArray()[i].toObject();
            QCOMPARE(sb.value("start_ms").toDouble(), sa.value("start_ms").toDouble());
            QCOMPARE(sb.value("end_ms").toDouble(), sa.value("end_ms").toDouble());
        }
        const auto human = conclave({"run", kExamples + "keyword-vote.team.json", "--input", "Calculate 323 + 460.",
                                     "--db", dir.filePath("runs.sqlite")});
        QCOMPARE(human.exitCode, 0);
        QVERIFY2(human.out.contains("\nclock: virtual (simulated time), CPU "), qPrintable(human.out));
        const auto list = QJsonDocument::fromJson(
                              conclave({"runs", "list", "--json", "--db", dir.filePath("runs.sqlite")}).out.toUtf8())
                              .array();
        QCOMPARE(list.size(), 3);
        for (const auto& run : list)
            QCOMPARE(run.toObject().value("clock").toString(), QString("virtual"));
    }

    void clockMistakesAreRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("--time-scale on the virtual clock")
            << QStringList{"run",          kExamples + "keyword-vote.team.json",
                           "--input",      "x",
                           "--time-scale", "0.1",
                           "--clock",      "virtual"}
            << "run: --time-scale applies to the real clock only; drop it, or use --clock real\n";
        const QString endpoint = QStringLiteral(CONCLAVE_TEST_DATA "/teams/endpoint.team.json");
        QTest::newRow("an openai backend on the virtual clock")
            << QStringList{"run", endpoint, "--input", "x", "--clock", "virtual"}
            << endpoint +
                   ": the virtual clock needs every backend to be local-moe or recorded: node \"e\" calls backend "
                   "\"remote\", an openai endpoint, so the team runs on the real clock only\n";
        QTest::newRow("an unknown clock")
            << QStringList{"run", kExamples + "keyword-vote.team.json", "--input", "x", "--clock", "sundial"}
            << "--clock: sundial not in {real,virtual}\nRun with --help for more information.\n";
    }
    void clockMistakesAreRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        QTemporaryDir dir;
        args << "--db" << dir.filePath("runs.sqlite");
        const auto r = conclave(args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QString());
        QCOMPARE(r.err, error);
    }

    // Ctrl+C at a terminal once the live progress line shows the run under
    // way: the run is cancelled, what had finished is printed, and it says so.
    void interruptCancels()
    {
        // On the real clock at ten times the simulated latencies: the run is still going when the signal comes.
        testsupport::TerminalProcess process(kBinary, {"run", kExamples + "mixture-of-agents.team.json", "--input",
                                                       "Calculate 323 + 460.", "--time-scale", "10"});
        QVERIFY(process.started());
        // The line is drawn by the loop that watches for Ctrl+C, after its handler is installed.
        QVERIFY2(process.waitForTerminal(" running, ", std::chrono::seconds(60)), process.terminal().c_str());
        ::kill(process.pid(), SIGINT);
        QVERIFY(process.waitForFinished(std::chrono::seconds(60)));
        QCOMPARE(process.exitCode(), 1);
        const auto out = QString::fromStdString(process.out());
        QVERIFY2(out.contains(": cancelled  (wall "), qPrintable(out));
        // The terminal shows progress lines, each drawn over the last, then the line cleared and the reason.
        const QString clear = QStringLiteral("\r\033[K");
        const QString reason = QStringLiteral("conclave: cancelled; the results above are what had finished\n");
        auto terminal = QString::fromStdString(process.terminal());
        QVERIFY2(terminal.endsWith(clear + reason), qPrintable(terminal));
        terminal.chop(reason.size());
        const QRegularExpression progress(
            QStringLiteral(R"(^\d+ running, \d+ done, \d+ failed  \d+\.\d s  \$(0|\d+\.\d{2,10})$)"));
        const auto lines = terminal.split(clear, Qt::SkipEmptyParts);
        QVERIFY(!lines.isEmpty());
        for (const auto& line : lines)
            QVERIFY2(progress.match(line).hasMatch(), qPrintable(line));
    }
};

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_clirun.moc"
