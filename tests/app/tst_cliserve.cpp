// `conclave serve` as a process: it says where it listens, answers, re-reads
// its teams on SIGHUP (keeping the old ones when the new ones are bad),
// drains and exits 0 on SIGTERM; bad keys files, clashing ids and a wide
// --host without keys are refused at start with exact messages.
#include <QtTest>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include "support/CliProcess.h"
#include "support/RawHttpClient.h"
#include "support/ServeClient.h"

#include <csignal>
#include <sys/stat.h>

using testsupport::serveclient::call;
using namespace std::chrono_literals;

namespace {

const QString kTriage = QStringLiteral(CONCLAVE_RESOURCES "/examples/triage.team.json");

} // namespace

class TestCliServe : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.path() + "/" + name; }

    // Starts `conclave serve ARGS --port 0 --db …` and reads the port it says.
    uint16_t start(QProcess& process, QStringList args)
    {
        args.prepend("serve");
        args << "--port" << "0" << "--db" << path("runs.sqlite");
        process.start(QStringLiteral(CONCLAVE_BIN_DIR "/conclave"), args);
        if (!process.waitForStarted(10000))
            return 0;
        QString said;
        for (int i = 0; i < 100 && !said.contains("/v1"); ++i) {
            process.waitForReadyRead(100);
            said += QString::fromUtf8(process.readAllStandardError());
        }
        const auto at = said.indexOf("http://127.0.0.1:");
        return at < 0 ? 0 : uint16_t(said.mid(at + 17).section('/', 0, 0).toUInt());
    }

    static QString waitForErr(QProcess& process, const QString& text)
    {
        QString said;
        for (int i = 0; i < 100 && !said.contains(text); ++i) {
            process.waitForReadyRead(100);
            said += QString::fromUtf8(process.readAllStandardError());
        }
        return said;
    }

private slots:
    void servesReloadsAndDrains()
    {
        QFile::remove(path("team.team.json"));
        QVERIFY(QFile::copy(kTriage, path("team.team.json")));
        QFile::setPermissions(path("team.team.json"), QFile::ReadOwner | QFile::WriteOwner);
        QProcess process;
        const uint16_t port = start(process, {path("team.team.json")});
        QVERIFY(port != 0);
        const std::string body = R"({"model": "team", "messages": [{"role": "user", "content": "Calculate 323 + 460."}]})";
        QCOMPARE(call(port, "POST", "/v1/chat/completions", body).status, 200);

        // A bad team on SIGHUP: the one before stays.
        {
            QFile f(path("team.team.json"));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("{ not json");
        }
        ::kill(pid_t(process.processId()), SIGHUP);
        const QString refused = waitForErr(process, "still serving");
        QVERIFY2(refused.contains("conclave serve: the teams were not reloaded; still serving the ones before:\n" +
                                  path("team.team.json") +
                                  ":1:4: syntax error while parsing object key - invalid literal; last read: '{ no'; "
                                  "expected string literal\n"),
                 qPrintable(refused));
        QCOMPARE(call(port, "POST", "/v1/chat/completions", body).status, 200);

        QFile::remove(path("team.team.json"));
        QVERIFY(QFile::copy(kTriage, path("team.team.json")));
        ::kill(pid_t(process.processId()), SIGHUP);
        const QString reloaded = waitForErr(process, "reloaded");
        QVERIFY2(reloaded.contains("conclave serve: reloaded team (" + path("team.team.json") + ")"),
                 qPrintable(reloaded));

        ::kill(pid_t(process.processId()), SIGTERM);
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(err.contains("conclave serve: draining (up to 30 s)\nconclave serve: stopped\n"), qPrintable(err));
        // One access-log line per request, on stdout.
        const QString log = QString::fromUtf8(process.readAllStandardOutput());
        QCOMPARE(log.count("\"path\":\"/v1/chat/completions\",\"status\":200"), 2);

        const auto runs = testsupport::runConclave({"runs", "list", "--source", "serve", "--db", path("runs.sqlite")});
        QCOMPARE(runs.exitCode, 0);
        QCOMPARE(runs.out.count("\n") - 1, 2); // a header line, then one line a run
    }

    void refusesBadStarts_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("err");
        const QString keys = m_dir.path() + "/open-keys";
        QTest::newRow("keys readable") << QStringList{kTriage, "--api-keys-file", keys}
                                       << "serve: " + keys + ": group or others may read the keys file (mode 0644); "
                                                             "run: chmod 600 " + keys + "\n";
        QTest::newRow("same id") << QStringList{kTriage, QStringLiteral(CONCLAVE_RESOURCES "/examples/mixture-of-agents.team.json=triage")}
                                 << "serve: two teams are served as \"triage\": " + kTriage + " and " +
                                        QStringLiteral(CONCLAVE_RESOURCES "/examples/mixture-of-agents.team.json") +
                                        "; name one with FILE=NAME\n";
        QTest::newRow("wide without keys")
            << QStringList{kTriage, "--host", "0.0.0.0"}
            << "serve: --host 0.0.0.0 is reachable from other machines: give --api-keys-file FILE or --api-key-env VAR\n";
        QTest::newRow("env unset") << QStringList{kTriage, "--api-key-env", "CONCLAVE_NO_SUCH_KEY_VAR"}
                                   << "serve: --api-key-env CONCLAVE_NO_SUCH_KEY_VAR: the variable is not set\n";
    }
    void refusesBadStarts()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, err);
        {
            QFile f(m_dir.path() + "/open-keys");
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("sk-0123456789 name=a\n");
        }
        ::chmod(qPrintable(m_dir.path() + "/open-keys"), 0644);
        const auto r = testsupport::runConclave(QStringList{"serve"} << args << "--port" << "0" << "--db"
                                                                     << path("bad.sqlite"));
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, err);
    }
};

QTEST_GUILESS_MAIN(TestCliServe)
#include "tst_cliserve.moc"
