// `conclave run` stores every run; `conclave runs list|show|export|rerun|delete|prune`
// read and manage the store; bad database files are refused untouched.
#include <QtTest>

#include <algorithm>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "support/CliProcess.h"

#undef emit

#include "support/StoreRows.h"

#include <sys/stat.h>

namespace {

using Result = testsupport::CliResult;

const QString kExamples = QStringLiteral(CONCLAVE_RESOURCES "/examples/");

Result cli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    // CONCLAVE_DB=unset in `env` means: run without the variable.
    auto clean = env;
    if (clean.value("CONCLAVE_DB") == "unset")
        clean.remove("CONCLAVE_DB");
    return testsupport::runConclave(args, clean);
}

QJsonDocument json(const QString& text)
{
    return QJsonDocument::fromJson(text.toUtf8());
}

QByteArray bytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCliRuns : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db;
    QString m_runId;
    QJsonObject m_run;

    QStringList withDb(QStringList args) const { return args << "--db" << m_db; }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.path() + "/runs.sqlite";
    }

    void runStoresTheRunAndPrintsItsId()
    {
        const auto r = cli(withDb({"run", kExamples + "keyword-vote.team.json", "--task", "math-001", "--json",
                                   "--time-scale", "0.01", "--seed", "5"}));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        m_run = json(r.out).object();
        m_runId = m_run.value("run_id").toString();
        QCOMPARE(m_runId.size(), 12);
        const auto list = cli(withDb({"runs", "list", "--json"}));
        QCOMPARE(list.exitCode, 0);
        QCOMPARE(list.err, QString());
        const auto runs = json(list.out).array();
        QCOMPARE(runs.size(), 1);
        const auto run = runs.first().toObject();
        QCOMPARE(run.value("run_id").toString(), m_runId);
        QCOMPARE(run.value("status").toString(), m_run.value("status").toString());
        QCOMPARE(run.value("seed").toInt(), 5);
        QCOMPARE(run.value("team").toString(), QString("Keyword routing with a vote"));
        QCOMPARE(run.value("answer").toString(), m_run.value("answer").toString());
        QCOMPARE(run.value("wall_ms").toDouble(), m_run.value("wall_ms").toDouble());

        // The human form names the same id on its first line.
        const auto human = cli(withDb(
            {"run", kExamples + "keyword-vote.team.json", "--input", "Calculate 323 + 460.", "--time-scale", "0.01"}));
        QCOMPARE(human.exitCode, 0);
        const auto id = human.out.section(' ', 1, 1).chopped(1);
        const auto listed = cli(withDb({"runs", "list", "--limit", "1"}));
        QCOMPARE(listed.exitCode, 0);
        QCOMPARE(listed.out.split('\n').value(1).left(12), id);
    }

    void listFilters()
    {
        QCOMPARE(json(cli(withDb({"runs", "list", "--json", "--limit", "1"})).out).array().size(), 1);
        QCOMPARE(json(cli(withDb({"runs", "list", "--json", "--team", "nobody"})).out).array().size(), 0);
        QCOMPARE(json(cli(withDb({"runs", "list", "--json", "--status", "interrupted"})).out).array().size(), 0);
        const auto bad = cli(withDb({"runs", "list", "--status", "weird"}));
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--status"));
    }

    void show()
    {
        const auto r = cli(withDb({"runs", "show", m_runId.left(6)}));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        QVERIFY(r.out.startsWith("run " + m_runId + ": " + m_run.value("status").toString()));
        QVERIFY(r.out.contains("\nparallelism "));
        // --time-scale ran it on the real clock, and the CPU it used is said beside it.
        QVERIFY2(r.out.contains("\nclock: real, CPU "), qPrintable(r.out));
        QVERIFY(r.out.contains("\ncritical path: in -> "));
        QVERIFY(r.out.contains("\ncould have run in parallel, ran one after another: "));
        const auto j = json(cli(withDb({"runs", "show", m_runId, "--json"})).out).object();
        QCOMPARE(j.value("run_id").toString(), m_runId);
        QCOMPARE(j.value("clock").toString(), QString("real"));
        QCOMPARE(j.value("cpu_ms").toDouble(), m_run.value("cpu_ms").toDouble());
        const auto agents = j.value("agents").toArray();
        QCOMPARE(agents.size(), 6); // every node of keyword-vote
        for (const auto& a : agents) {
            for (const auto* key : {"node", "kind", "status", "calls", "wall_ms", "busy_ms", "ttft_ms", "tokens_in",
                                    "tokens_out", "cost_usd"})
                QVERIFY2(a.toObject().contains(key), key);
        }
        QCOMPARE(j.value("critical_path").toArray(), m_run.value("critical_path").toArray());
        QVERIFY(j.value("parallelism").toDouble() > 0);
        QVERIFY(j.value("serialised_branches").isArray());

        const auto missing = cli(withDb({"runs", "show", "zzzz"}));
        QCOMPARE(missing.exitCode, 2);
        QCOMPARE(missing.err, "conclave: no run \"zzzz\" in " + m_db + "\n");
    }

    void exports()
    {
        const int spans = m_run.value("spans").toArray().size();
        for (const QString format : {"json", "chrome", "otlp", "csv"}) {
            const auto file = m_dir.path() + "/export." + format;
            const auto r = cli(withDb({"runs", "export", m_runId, "--format", format, "-o", file}));
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(r.out, QString());
            QCOMPARE(r.err, QString());
            const auto content = bytes(file);
            if (format == "csv") {
                QCOMPARE(content.count("\r\n"), spans + 1);
                QVERIFY(content.startsWith("run_id,span_id,parent,node,kind,name,"));
                continue;
            }
            const auto doc = QJsonDocument::fromJson(content);
            QVERIFY2(doc.isObject(), qPrintable(format));
            if (format == "json") {
                QCOMPARE(doc.object().value("spans").toArray().size(), spans);
                QCOMPARE(doc.object().value("output").toString(), m_run.value("output").toString());
            } else if (format == "chrome") {
                int x = 0;
                for (const auto& e : doc.object().value("traceEvents").toArray())
                    x += e.toObject().value("ph").toString() == "X";
                QCOMPARE(x, spans);
            } else {
                const auto otlpSpans = doc.object()
                                           .value("resourceSpans")
                                           .toArray()
                                           .first()
                                           .toObject()
                                           .value("scopeSpans")
                                           .toArray()
                                           .first()
                                           .toObject()
                                           .value("spans")
                                           .toArray();
                QCOMPARE(otlpSpans.size(), spans);
            }
        }
        const auto toStdout = cli(withDb({"runs", "export", m_runId, "--format", "csv"}));
        QCOMPARE(toStdout.exitCode, 0);
        QCOMPARE(toStdout.out.toUtf8(), bytes(m_dir.path() + "/export.csv"));
        const auto badFormat = cli(withDb({"runs", "export", m_runId, "--format", "xml"}));
        QCOMPARE(badFormat.exitCode, 2);
    }

    // The stored team, input and seed again: on the local backend, the same outputs.
    void rerunReproducesOutputs()
    {
        const auto r = cli(withDb({"runs", "rerun", m_runId, "--json"}));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err, QString());
        const auto again = json(r.out).object();
        QVERIFY(again.value("run_id").toString() != m_runId);
        QCOMPARE(again.value("status").toString(), m_run.value("status").toString());
        QCOMPARE(again.value("output").toString(), m_run.value("output").toString());
        QCOMPARE(again.value("answer").toString(), m_run.value("answer").toString());
        QCOMPARE(again.value("tokens").toInt(), m_run.value("tokens").toInt());
        QCOMPARE(again.value("cost_usd").toDouble(), m_run.value("cost_usd").toDouble());
        const auto a = m_run.value("spans").toArray();
        const auto b = again.value("spans").toArray();
        QCOMPARE(b.size(), a.size());
        for (int i = 0; i < a.size(); ++i) {
            for (const auto* key : {"node", "kind", "model", "tokens_in", "tokens_out", "status"})
                QCOMPARE(b[i].toObject().value(key), a[i].toObject().value(key));
        }
        const auto list = json(cli(withDb({"runs", "list", "--json"})).out).array();
        QCOMPARE(list.first().toObject().value("run_id").toString(), again.value("run_id").toString());

        // The store says what started each: `conclave run`, then `runs rerun`.
        const auto reruns = json(cli(withDb({"runs", "list", "--json", "--source", "rerun"})).out).array();
        QCOMPARE(reruns.size(), 1);
        QCOMPARE(reruns[0].toObject().value("run_id").toString(), again.value("run_id").toString());
        QCOMPARE(reruns[0].toObject().value("source").toString(), QStringLiteral("rerun"));
        const auto runs = json(cli(withDb({"runs", "list", "--json", "--source", "run"})).out).array();
        QVERIFY(!runs.isEmpty());
        for (const auto& run : runs)
            QCOMPARE(run.toObject().value("source").toString(), QStringLiteral("run"));
        // A rerun runs the same team: the same hash.
        const auto original = std::find_if(runs.begin(), runs.end(), [&](const QJsonValue& run) {
            return run.toObject().value("run_id").toString() == m_runId;
        });
        QVERIFY(original != runs.end());
        QCOMPARE(original->toObject().value("team_hash").toString(),
                 reruns[0].toObject().value("team_hash").toString());
        QCOMPARE(original->toObject().value("team_hash").toString().size(), 16);
        QCOMPARE(json(cli(withDb({"runs", "list", "--json", "--source", "serve"})).out).array().size(), 0);
        const auto bad = cli(withDb({"runs", "list", "--source", "cron"}));
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.err, QStringLiteral("runs list: --source: expected run, rerun, eval, studio or serve, got \"cron\"\n"));
    }

    void mergeCopiesRunsNotAlreadyThere()
    {
        // Two replicas' stores: runs of their own, and one experiment's trials in the first.
        const QString a = m_dir.path() + "/replica-a.sqlite";
        const QString b = m_dir.path() + "/replica-b.sqlite";
        const QString out = m_dir.path() + "/merged.sqlite";
        QStringList ids;
        for (const auto& [store, seed] : {std::pair{a, "1"}, std::pair{a, "2"}, std::pair{b, "3"}}) {
            const auto r = cli({"run", kExamples + "keyword-vote.team.json", "--task", "math-001", "--json",
                                "--time-scale", "0.01", "--seed", seed, "--db", store});
            QCOMPARE(r.exitCode, 0);
            ids << json(r.out).object().value("run_id").toString();
        }
        const auto eval = cli({"eval", kExamples + "keyword-vote.team.json", "--taskset", "math", "--sample", "2",
                               "--seeds", "1", "--db", a});
        QVERIFY2(eval.exitCode == 0, qPrintable(eval.err));

        const QString fromA = ids.first();
        const auto merged = cli({"runs", "merge", a, b, "--db", out});
        QVERIFY2(merged.exitCode == 0, qPrintable(merged.err));
        QCOMPARE(merged.out, a + ": 2 runs\n" + b + ": 1 run\nmerged 3 runs into " + out + "\n");
        const auto listed = json(cli({"runs", "list", "--json", "--experiments", "--db", out}).out).array();
        QStringList here;
        for (const auto& run : listed)
            here << run.toObject().value("run_id").toString();
        here.sort();
        ids.sort();
        QCOMPARE(here, ids); // the trials stay with their experiment (experiments merge)
        // Whole runs: their spans came too, the same as in the replica.
        const auto inReplica = json(cli({"runs", "show", fromA, "--json", "--db", a}).out).object();
        const auto shown = json(cli({"runs", "show", fromA, "--json", "--db", out}).out).object();
        QCOMPARE(shown.value("agents").toArray().size(), 6);
        QCOMPARE(shown.value("agents"), inReplica.value("agents"));
        QCOMPARE(shown.value("critical_path"), inReplica.value("critical_path"));

        // Again: nothing new. Bad input: named, nothing merged.
        QCOMPARE(cli({"runs", "merge", a, b, "--db", out}).out,
                 a + ": 0 runs\n" + b + ": 0 runs\nmerged 0 runs into " + out + "\n");
        const auto missing = cli({"runs", "merge", m_dir.path() + "/none.sqlite", "--db", out});
        QCOMPARE(missing.exitCode, 2);
        QCOMPARE(missing.err, "runs merge: " + m_dir.path() + "/none.sqlite: no such file\n");
        const auto itself = cli({"runs", "merge", out, "--db", out});
        QCOMPARE(itself.exitCode, 2);
        QCOMPARE(itself.err, "runs merge: " + out + ": is the store it would be merged into\n");
    }

    void deleteAndPrune()
    {
        const auto before = json(cli(withDb({"runs", "list", "--json"})).out).array();
        QCOMPARE(before.size(), 3);
        const auto unknown = cli(withDb({"runs", "delete", m_runId, "ffffffffffff"}));
        QCOMPARE(unknown.exitCode, 2);
        QCOMPARE(unknown.err, "conclave: no run \"ffffffffffff\" in " + m_db + "; nothing deleted\n");
        QCOMPARE(json(cli(withDb({"runs", "list", "--json"})).out).array().size(), 3);
        const auto deleted = cli(withDb({"runs", "delete", m_runId}));
        QCOMPARE(deleted.exitCode, 0);
        QCOMPARE(deleted.out, QString("deleted 1 run\n"));
        const auto pruned = cli(withDb({"runs", "prune", "--keep", "1"}));
        QCOMPARE(pruned.exitCode, 0);
        QCOMPARE(pruned.out, QString("deleted 1 run, kept the 1 most recent\n"));
        const auto after = json(cli(withDb({"runs", "list", "--json"})).out).array();
        QCOMPARE(after.size(), 1);
        QCOMPARE(after.first().toObject().value("run_id"), before.first().toObject().value("run_id"));
    }

    void databaseLocation()
    {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", m_dir.path() + "/xdg");
        env.insert("CONCLAVE_DB", "unset");
        const auto xdgStore = m_dir.path() + "/xdg/conclave/runs.sqlite";
        const QStringList runHi{"run", kExamples + "keyword-vote.team.json", "--input", "hi", "--time-scale", "0.01"};
        QCOMPARE(cli({"runs", "list"}, env).err, "conclave: " + xdgStore + ": no such run store\n");
        QCOMPARE(cli(runHi, env).exitCode, 0);
        QVERIFY(QFile::exists(xdgStore));
        QCOMPARE(json(cli({"runs", "list", "--json"}, env).out).array().size(), 1);
        env.insert("CONCLAVE_DB", m_dir.path() + "/env.sqlite");
        QCOMPARE(cli(runHi, env).exitCode, 0);
        QCOMPARE(cli(runHi, env).exitCode, 0);
        QCOMPARE(json(cli({"runs", "list", "--json"}, env).out).array().size(), 2);
        // --db wins over CONCLAVE_DB.
        QCOMPARE(json(cli({"runs", "list", "--json", "--db", xdgStore}, env).out).array().size(), 1);
    }

    // list, show and export only read: on a missing file they create nothing.
    void readCommandsCreateNoStore_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("list") << QStringList{"runs", "list"};
        QTest::newRow("list --json") << QStringList{"runs", "list", "--json"};
        QTest::newRow("show") << QStringList{"runs", "show", "abc"};
        QTest::newRow("export") << QStringList{"runs", "export", "abc", "--format", "json"};
    }
    void readCommandsCreateNoStore()
    {
        QFETCH(QStringList, args);
        const auto missing = m_dir.path() + "/missing/runs.sqlite";
        const auto r = cli(args << "--db" << missing);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QString());
        QCOMPARE(r.err, "conclave: " + missing + ": no such run store\n");
        QVERIFY(!QFile::exists(m_dir.path() + "/missing"));
    }

    // A store of an older schema: migrated by a reader when writable, else refused saying how to upgrade.
    void readCommandsOnAnOlderStore()
    {
        const auto writable = m_dir.path() + "/older.sqlite";
        QVERIFY(testsupport::makeOlderStore(writable.toStdString(), 4));
        const auto listed = cli({"runs", "list", "--json", "--db", writable});
        QCOMPARE(listed.err, QString());
        QCOMPARE(json(listed.out).array().size(), 1);
        QCOMPARE(testsupport::rows(writable.toStdString(), "PRAGMA user_version"), int64_t(9));

        const auto readOnly = m_dir.path() + "/older-read-only.sqlite";
        QVERIFY(testsupport::makeOlderStore(readOnly.toStdString(), 4));
        QCOMPARE(::chmod(readOnly.toLocal8Bit().constData(), 0444), 0);
        const auto before = bytes(readOnly);
        const auto refused = cli({"runs", "show", "00000000000a", "--db", readOnly});
        QCOMPARE(refused.exitCode, 2);
        QCOMPARE(refused.err, "conclave: " + readOnly +
                                  ": store schema version 4 needs upgrading to 9, but the file is read-only; make it "
                                  "writable and run conclave runs list --db " +
                                  readOnly + " once to upgrade it\n");
        QCOMPARE(bytes(readOnly), before);
        QVERIFY(!QFile::exists(readOnly + "-wal"));
        // Writable again, the command it names upgrades it.
        QCOMPARE(::chmod(readOnly.toLocal8Bit().constData(), 0644), 0);
        QCOMPARE(cli({"runs", "list", "--db", readOnly}).exitCode, 0);
        QCOMPARE(cli({"runs", "show", "00000000000a", "--db", readOnly}).exitCode, 0);
    }

    void badDatabaseIsRefusedUntouched()
    {
        const auto path = m_dir.path() + "/bad.sqlite";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("this is not a database, just some text\n").repeated(100));
        f.close();
        const auto before = bytes(path);
        for (const auto& args :
             {QStringList{"runs", "list", "--db", path},
              QStringList{"run", kExamples + "keyword-vote.team.json", "--input", "hi", "--db", path}}) {
            const auto r = cli(args);
            QCOMPARE(r.exitCode, 2);
            QCOMPARE(r.out, QString());
            QCOMPARE(r.err, "conclave: " + path + ": not an SQLite database\n");
        }
        QCOMPARE(bytes(path), before);
    }
};

QTEST_GUILESS_MAIN(TestCliRuns)
#include "tst_cliruns.moc"
