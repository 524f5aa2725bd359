// `conclave search` and `conclave searches`: a search on the command line,
// its report, the team files it writes, its refusals, kill -9 and resume to
// the same front, and the stored searches listed, shown, exported and deleted.
#include <QtTest>

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <signal.h>

#include "support/CliProcess.h"

#undef emit

#include "conclave/store/SqliteDb.h"

namespace {

using Result = testsupport::CliResult;

const QString kExamples = QStringLiteral(CONCLAVE_RESOURCES "/examples/");
const QString kTasks = QStringLiteral(CONCLAVE_RESOURCES "/tasksets/");

Result cli(const QStringList& args)
{
    return testsupport::runConclave(args);
}

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

QByteArray read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Rows of a query on a store file (-1 when it cannot be read).
int64_t rows(const QString& db, const char* sql)
{
    conclave::SqliteDb sqlite;
    if (sqlite.open(db.toStdString(), conclave::SqliteDb::Mode::ReadOnly))
        return -1;
    auto s = sqlite.prepare(sql);
    return s.valid() && s.step() ? s.int64(0) : -1;
}

QJsonObject object(const QString& text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

QStringList frontOf(const QJsonObject& report)
{
    QStringList out;
    for (const auto& d : report["front"].toArray())
        out << d.toObject()["name"].toString();
    return out;
}

} // namespace

class TestCliSearch : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.path() + "/" + name; }

    // The triage example's fields a user would try first.
    QString triageSpace()
    {
        const auto file = path("triage.space.json");
        write(file, "{\"parameters\": [\"intake.model=local/tiny-1b,local/generalist-7b,local/reasoner-34b\", "
                    "\"gate.top_k=1,2,3\", \"best.min_confidence=0.5:0.95:0.15\", "
                    "\"planner.model=local/reasoner-34b,local/generalist-7b\"]}");
        return file;
    }

    QStringList triageSearch(const QString& db, const QString& out, const QString& budget)
    {
        return {"search", kExamples + "triage.team.json", "--space", triageSpace(), "--taskset", path("mr.jsonl"),
                "--budget-trials", budget, "-o", out, "--db", db};
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        write(path("mr.jsonl"), read(kTasks + "math.jsonl") + read(kTasks + "reasoning.jsonl"));
    }

    void searchesAndWritesTheFront()
    {
        const auto db = path("one.sqlite");
        const auto out = path("front");
        auto args = triageSearch(db, out, "4000");
        args << "--json";
        const auto r = cli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto report = object(r.out);
        QCOMPARE(report["status"].toString(), QString("finished"));
        QVERIFY(report["simulated"].toBool());
        QCOMPARE(report["parts"].toObject()["search"].toInt(), 79);
        QCOMPARE(report["parts"].toObject()["test"].toInt(), 35);
        QVERIFY(report["spent"].toObject()["search_trials"].toInt() <= 4000);
        const auto front = report["front"].toArray();
        QVERIFY(!front.isEmpty());
        // Every front design measured on test against triage as drawn, and written as a team file.
        const auto files = QDir(out).entryList({"*.team.json"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), front.size());
        for (const auto& d : front) {
            const auto design = d.toObject();
            QVERIFY(design["test"].toObject().contains("delta_ci"));
            const auto file = design["file"].toString();
            QVERIFY(QFile::exists(file));
            QCOMPARE(cli({"validate", file}).exitCode, 0);
        }
        QCOMPARE(report["command"].toString(),
                 "conclave search " + kExamples + "triage.team.json --space " + triageSpace() + " --taskset " +
                     path("mr.jsonl") + " --budget-trials 4000 --objectives accuracy,cost,p95_wall --split "
                                        "0.5/0.25/0.25 --seed 1 -o " + out);

        // Stored: listed, shown as printed, exported, and deleted.
        const auto list = QJsonDocument::fromJson(cli({"searches", "list", "--json", "--db", db}).out.toUtf8()).array();
        QCOMPARE(list.size(), 1);
        const auto id = list[0].toObject()["search_id"].toString();
        QCOMPARE(id, report["id"].toString());
        QCOMPARE(list[0].toObject()["status"].toString(), QString("finished"));
        QCOMPARE(list[0].toObject()["front"].toInt(), int(front.size()));
        const auto shown = cli({"searches", "show", id.left(6), "--db", db});
        QCOMPARE(shown.exitCode, 0);
        QVERIFY(shown.out.startsWith("design search " + id + ": finished"));
        QVERIFY(shown.out.contains("measured once on the 35 test tasks"));
        const auto candidates = cli({"searches", "show", id, "--candidates", "--db", db});
        QVERIFY(candidates.out.contains("\ncandidates:\n  #1  "));
        const auto csv = cli({"searches", "export", id, "--format", "csv", "--db", db});
        QVERIFY(csv.out.startsWith("candidate,key,name,status,rung,generation,dropped_by,why,parameters\n1,\"b0:-,-,-,-\","));
        const auto exported = object(cli({"searches", "export", id, "--db", db}).out);
        QCOMPARE(exported["trials"].toArray().size(),
                 report["spent"].toObject()["search_trials"].toInt() +
                     report["spent"].toObject()["validation_trials"].toInt() +
                     report["spent"].toObject()["test_trials"].toInt());
        // A folder with files in it is refused before anything runs.
        const auto again = cli(triageSearch(db, out, "4000"));
        QCOMPARE(again.exitCode, 2);
        QCOMPARE(again.err, "search: " + out + ": not empty; give --force to write the front's team files into it anyway\n");
        const auto deleted = cli({"searches", "delete", id, "--db", db});
        QCOMPARE(deleted.exitCode, 0);
        QVERIFY(deleted.out.startsWith("deleted search " + id + " ("));
        QCOMPARE(rows(db, "SELECT count(*) FROM search_trials"), int64_t(0));
        QCOMPARE(cli({"searches", "show", id, "--db", db}).err, "searches: no search \"" + id + "\"\n");
    }

    void killedThenResumedToTheSameFront()
    {
        // Uninterrupted, for reference.
        const auto whole = cli(triageSearch(path("whole.sqlite"), path("whole"), "30000") << "--json");
        QVERIFY2(whole.exitCode == 0, qPrintable(whole.err));
        const auto expected = object(whole.out);

        const auto db = path("killed.sqlite");
        QProcess search;
        search.start(QStringLiteral(CONCLAVE_BIN_DIR "/conclave"), triageSearch(db, path("killed"), "30000"));
        QVERIFY(search.waitForStarted(10000));
        QDeadlineTimer deadline(std::chrono::minutes(2));
        while (!deadline.hasExpired() && search.state() == QProcess::Running &&
               rows(db, "SELECT count(*) FROM search_trials") < 1500)
            search.waitForFinished(10);
        QVERIFY2(search.state() == QProcess::Running, "the search ended before it could be killed");
        ::kill(pid_t(search.processId()), SIGKILL);
        QVERIFY(search.waitForFinished(30000));
        const auto kept = rows(db, "SELECT count(*) FROM search_trials");
        QVERIFY(kept >= 1500);
        const auto list = QJsonDocument::fromJson(cli({"searches", "list", "--json", "--db", db}).out.toUtf8()).array();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list[0].toObject()["status"].toString(), QString("interrupted"));

        // The same command resumes it: what was kept is read back, and the front is the same.
        const auto resumed = cli(triageSearch(db, path("killed"), "30000") << "--json");
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY(resumed.err.contains("was run before (interrupted): its stored trials are read back, not run again"));
        const auto report = object(resumed.out);
        QCOMPARE(report["id"].toString(), expected["id"].toString());
        QVERIFY(report["spent"].toObject()["kept_trials"].toInt() > 0);
        QCOMPARE(report["spent"].toObject()["search_trials"].toInt(), expected["spent"].toObject()["search_trials"].toInt());
        QCOMPARE(frontOf(report), frontOf(expected));
        QCOMPARE(rows(db, "SELECT count(*) FROM searches WHERE status = 'finished'"), int64_t(1));
    }

    void ctrlCKeepsAndPrintsTheFrontSoFar()
    {
        const auto db = path("interrupted.sqlite");
        QProcess search;
        search.start(QStringLiteral(CONCLAVE_BIN_DIR "/conclave"), triageSearch(db, path("interrupted"), "30000"));
        QVERIFY(search.waitForStarted(10000));
        QDeadlineTimer deadline(std::chrono::minutes(2));
        while (!deadline.hasExpired() && search.state() == QProcess::Running &&
               rows(db, "SELECT count(*) FROM search_trials") < 1500)
            search.waitForFinished(10);
        QVERIFY2(search.state() == QProcess::Running, "the search ended before it could be interrupted");
        ::kill(pid_t(search.processId()), SIGINT);
        QVERIFY(search.waitForFinished(60000));
        QCOMPARE(search.exitStatus(), QProcess::NormalExit);
        QCOMPARE(search.exitCode(), 1);
        const auto out = QString::fromUtf8(search.readAllStandardOutput());
        QVERIFY2(out.contains(": stopped (stopped by Ctrl+C: the front so far is kept; the same command resumes it)"),
                 qPrintable(out));
        QVERIFY(out.contains("front so far, on the search part (not measured on validation or test):"));
        QVERIFY(!QFile::exists(path("interrupted") + "/01-triage-c1.team.json"));
        QCOMPARE(rows(db, "SELECT count(*) FROM searches WHERE status = 'stopped'"), int64_t(1));
        QVERIFY(rows(db, "SELECT count(*) FROM search_trials") >= 1500);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        const auto team = kExamples + "triage.team.json";
        QTest::newRow("no budget") << QStringList{"search", team, "--space", "S", "--taskset", "math", "-o", "D"}
                                   << "search: give a budget: --budget-trials N (reproducible) or --budget-seconds S\n";
        QTest::newRow("one objective")
            << QStringList{"search", team, "--space", "S", "--taskset", "math", "-o", "D", "--budget-trials", "9",
                           "--objectives", "accuracy"}
            << "search: --objectives: a search needs at least two objectives (one alone has no front)\n";
        QTest::newRow("bad split")
            << QStringList{"search", team, "--space", "S", "--taskset", "math", "-o", "D", "--budget-trials", "9",
                           "--split", "0.5/0.6"}
            << "search: --split: ";
        QTest::newRow("no such task set")
            << QStringList{"search", team, "--space", "S", "--taskset", "nope", "-o", "D", "--budget-trials", "9"}
            << "--taskset: \"nope\" is neither a bundled task set (code, facts, math, mixed-small, reasoning, writing) "
               "nor a file\n";
    }

    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        args << "--db" << path("refused.sqlite");
        const auto r = cli(args);
        QCOMPARE(r.exitCode, 2);
        if (error.endsWith(": "))
            QVERIFY2(r.err.startsWith(error), qPrintable(r.err));
        else
            QCOMPARE(r.err, error);
    }

    void refusesAPaidBase()
    {
        auto text = read(kExamples + "cascade.team.json");
        const auto team = path("paid.team.json");
        auto json = QJsonDocument::fromJson(text).object();
        json["backends"] = QJsonObject{{"local", QJsonObject{{"kind", "openai"}, {"base_url", "http://127.0.0.1:9/v1"}}}};
        write(team, QJsonDocument(json).toJson());
        write(path("paid.space.json"), "{\"parameters\": [\"defaults.timeout_ms=1000,2000\"]}");
        const auto r = cli({"search", team, "--space", path("paid.space.json"), "--taskset", "math", "-o",
                            path("paid"), "--budget-trials", "100", "--db", path("paid.sqlite")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("search: " + team + ": backend \"local\" calls a paid endpoint (openai), and a search "
                                "never spends money"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(path("paid")));
    }

    // Calibrated on a ground-truth world (not the simulator), searched on the simulator, confirmed in the world.
    void confirmsTheFrontInAGroundTruthWorld()
    {
        QProcess world;
        world.start(QStringLiteral(CONCLAVE_BIN_DIR "/conclave"),
                    {"world", "serve", QStringLiteral(CONCLAVE_RESOURCES "/bench/worlds/lab-a.json"), "--port", "0",
                     "--time-scale", "0.02"});
        QVERIFY(world.waitForStarted(10000));
        QString said;
        for (int i = 0; i < 100 && !said.contains("http://127.0.0.1:"); ++i) {
            world.waitForReadyRead(100);
            said += QString::fromUtf8(world.readAllStandardOutput());
        }
        const auto at = said.indexOf("http://127.0.0.1:");
        QVERIFY(at >= 0);
        const auto port = said.mid(at + 17).section('/', 0, 0);
        const auto db = path("world.sqlite");
        // The world's three models as single-model designs on its endpoint; prices name what it serves.
        const QString backends = "{\"world\": {\"kind\": \"openai\", \"base_url\": \"http://127.0.0.1:" + port +
                                 "/v1\", \"max_concurrency\": 64, \"prices\": {\"alpha\": {\"input\": 0.5, \"output\": 1.5}, "
                                 "\"beta\": {\"input\": 0.15, \"output\": 0.6}, \"gamma\": {\"input\": 0.05, \"output\": 0.2}}}}";
        const auto single = [&](const QString& model) {
            const auto file = path(model + ".team.json");
            write(file, ("{\"conclave\": 3, \"name\": \"" + model + "\", \"backends\": " + backends +
                         ", \"defaults\": {\"backend\": \"world\", \"retries\": 0}, \"nodes\": [{\"id\": \"in\", "
                         "\"kind\": \"input\"}, {\"id\": \"e\", \"kind\": \"expert\", \"model\": \"" + model +
                         "\"}, {\"id\": \"out\", \"kind\": \"output\"}], \"edges\": [{\"from\": \"in\", \"to\": \"e\"}, "
                         "{\"from\": \"e\", \"to\": \"out\"}]}").toUtf8());
            return file;
        };
        const auto measured = cli({"eval", single("alpha"), single("beta"), single("gamma"), "--taskset", "facts",
                                   "--yes", "--db", db, "--json"});
        QVERIFY2(measured.exitCode == 0, qPrintable(measured.err));
        const auto experiment = object(measured.out)["experiment_id"].toString();
        QVERIFY(!experiment.isEmpty());
        const auto models = path("world-models.json");
        QCOMPARE(cli({"calibrate", experiment, "--db", db, "-o", models}).exitCode, 0);
        // A vote of two experts on the calibrated simulator.
        write(path("pair.team.json"),
              "{\"conclave\": 3, \"name\": \"pair\", \"backends\": {\"local\": {\"kind\": \"local-moe\", "
              "\"models_file\": \"world-models.json\"}}, \"defaults\": {\"backend\": \"local\", \"retries\": 0}, "
              "\"nodes\": [{\"id\": \"in\", \"kind\": \"input\"}, {\"id\": \"a\", \"kind\": \"expert\", \"model\": "
              "\"alpha\"}, {\"id\": \"b\", \"kind\": \"expert\", \"model\": \"beta\"}, {\"id\": \"vote\", \"kind\": "
              "\"aggregator\", \"strategy\": \"majority\"}, {\"id\": \"out\", \"kind\": \"output\"}], \"edges\": "
              "[{\"from\": \"in\", \"to\": \"a\"}, {\"from\": \"in\", \"to\": \"b\"}, {\"from\": \"a\", \"to\": \"vote\"}, "
              "{\"from\": \"b\", \"to\": \"vote\"}, {\"from\": \"vote\", \"to\": \"out\"}]}");
        write(path("pair.space.json"), "{\"parameters\": [\"a.model=alpha,beta,gamma\", \"b.model=alpha,beta,gamma\"]}");
        // A confirmation file that serves only alpha is refused before anything runs.
        write(path("alpha-only.team.json"), read(single("alpha")).replace("\"beta\": {\"input\": 0.15, \"output\": 0.6}, ", "").replace(", \"gamma\": {\"input\": 0.05, \"output\": 0.2}", ""));
        const auto refused = cli({"search", path("pair.team.json"), "--space", path("pair.space.json"), "--taskset", "facts",
                                  "--budget-trials", "2000", "-o", path("pair-refused"), "--db", db, "--confirm-on",
                                  path("alpha-only.team.json")});
        QCOMPARE(refused.exitCode, 2);
        QCOMPARE(refused.err, "search: --confirm-on " + path("alpha-only.team.json") +
                                  ": no backend serves beta, which b of pair calls (its backends serve: alpha)\n");
        const auto r = cli({"search", path("pair.team.json"), "--space", path("pair.space.json"), "--taskset", "facts",
                            "--budget-trials", "2000", "-o", path("pair-front"), "--db", db, "--confirm-on",
                            single("alpha"), "--json"});
        world.kill();
        world.waitForFinished();
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto report = object(r.out);
        const auto confirmed = report["confirmed"].toObject();
        const auto designs = confirmed["designs"].toArray();
        QCOMPARE(designs.size(), report["front"].toArray().size());
        for (const auto& d : designs) {
            const auto row = d.toObject();
            const auto ci = row["measured_accuracy_ci"].toArray();
            QVERIFY(ci[0].toDouble() <= row["measured_accuracy"].toDouble());
            QCOMPARE(row["inside"].toBool(), row["predicted_accuracy"].toDouble() >= ci[0].toDouble() &&
                                                 row["predicted_accuracy"].toDouble() <= ci[1].toDouble());
            QVERIFY(row["measured_cost_usd"].toDouble() > 0);
        }
        // Measured in the world: stored as an experiment of the front on the test tasks.
        QVERIFY(!designs.isEmpty());
        const auto shown = cli({"experiments", "show", confirmed["experiment"].toString(), "--db", db, "--json"});
        QCOMPARE(shown.exitCode, 0);
        QCOMPARE(object(shown.out)["designs"].toArray().size(), designs.size());
    }

    void readOnlyCommandsCreateNoStore()
    {
        const auto db = path("none.sqlite");
        const auto r = cli({"searches", "list", "--db", db});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, "searches: " + db + ": no such run store\n");
        QVERIFY(!QFile::exists(db));
    }
};

QTEST_GUILESS_MAIN(TestCliSearch)
#include "tst_clisearch.moc"
