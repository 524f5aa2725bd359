// The README's "Measure, calibrate, decide" loop, end to end over HTTP: a
// ground-truth world served by `conclave world serve`, three designs measured
// on it through an openai backend, calibrated, checked by `conclave fidelity`,
// and a cascade nobody measured predicted on the calibrated simulator. The
// world's answers are deterministic, so accuracies are exact; times are real.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "support/CliProcess.h"

namespace {

using Result = testsupport::CliResult;
using testsupport::lineStarting;
using testsupport::experimentId;

Result cli(const QStringList& args)
{
    return testsupport::runConclave(args);
}

} // namespace

class TestCliLabLoop : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcess m_world;
    QString m_url;

    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_world.start(QStringLiteral(CONCLAVE_BIN_DIR "/conclave"),
                      {"world", "serve", QStringLiteral(CONCLAVE_RESOURCES "/bench/worlds/lab-a.json"), "--port", "0",
                       "--time-scale", "0.01"});
        QVERIFY(m_world.waitForStarted(10000));
        QVERIFY(m_world.waitForReadyRead(10000));
        const auto first = QString::fromUtf8(m_world.readLine());
        QVERIFY2(first.startsWith("serving the ground-truth world lab-a (seed 101; models alpha, beta, gamma; 408 "
                                  "tasks) at http://127.0.0.1:"),
                 qPrintable(first));
        m_url = QRegularExpression("(http://127\\.0\\.0\\.1:[0-9]+/v1)").match(first).captured(1);
        QVERIFY(!m_url.isEmpty());
        // The lab's teams, pointed at this server.
        for (const char* name : {"lab-single.team.json", "lab-vote.team.json", "lab-synthesis.team.json",
                                 "lab-cascade.sim.team.json"}) {
            QFile in(QStringLiteral(CONCLAVE_RESOURCES "/bench/lab/") + name);
            QVERIFY(in.open(QIODevice::ReadOnly));
            auto text = QString::fromUtf8(in.readAll());
            text.replace("http://127.0.0.1:8089/v1", m_url);
            QFile out(path(name));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(text.toUtf8());
        }
    }

    void cleanupTestCase()
    {
        m_world.terminate();
        QVERIFY(m_world.waitForFinished(10000));
        QCOMPARE(m_world.exitCode(), 0);
        QVERIFY(m_world.readAllStandardOutput().endsWith("stopped\n"));
    }

    void measureCalibrateDecide()
    {
        const auto db = path("lab.sqlite");
        const auto measured = cli({"eval", path("lab-single.team.json"), path("lab-vote.team.json"),
                                   path("lab-synthesis.team.json"), "--taskset", "mixed-small", "--seeds", "2",
                                   "--concurrency", "8", "--db", db, "--yes"});
        QCOMPARE(measured.exitCode, 0);
        const auto id = experimentId(measured.out);
        QVERIFY(lineStarting(measured.out, "Lab: alpha alone ").contains("   real    measured"));
        QVERIFY(lineStarting(measured.out, "Lab: vote of three ").contains("    3.0 "));

        const auto calibrated = cli({"calibrate", id, "--db", db, "-o", path("lab.models.json"), "--context",
                                     "alpha=32768", "--context", "beta=32768", "--context", "gamma=32768"});
        QCOMPARE(calibrated.exitCode, 0);
        QVERIFY(calibrated.out.startsWith("wrote " + path("lab.models.json") + ": 3 models from 150 trials of 1 experiment\n"));

        const auto fidelity = cli({"fidelity", id, "--db", db, "--json"});
        QCOMPARE(fidelity.exitCode, 0);
        const auto report = QJsonDocument::fromJson(fidelity.out.toUtf8()).object();
        QCOMPARE(report["held_out_tasks"].toInt() + report["calibration_tasks"].toInt(), 25);
        QVERIFY(report["limitation"].isNull());
        const auto designs = report["designs"].toArray();
        QCOMPARE(designs.size(), 3);
        for (const auto& value : designs) {
            const auto d = value.toObject();
            // Replaying every recorded call reproduces what the endpoint answered.
            QCOMPARE(d["self_replay"].toObject()["accuracy"].toDouble(),
                     d["measured"].toObject()["accuracy"].toDouble());
            QVERIFY(d["simulated"].toObject()["accuracy_ci"].toArray().size() == 2);
        }

        const auto decided =
            cli({"eval", path("lab-cascade.sim.team.json"), "--taskset", "mixed-small", "--seeds", "2", "--db", db});
        QCOMPARE(decided.exitCode, 0);
        QVERIFY2(lineStarting(decided.out, "Lab: cascade (simulated): ")
                     .startsWith("Lab: cascade (simulated): predicted from calibration of experiment " + id +
                                 " (350 answers); calibration uncertainty: 200 resamples (simulation noise alone ["),
                 qPrintable(decided.out));
        QVERIFY(decided.out.contains("simulated: these results come from the local-moe simulator, not from real models"));
    }
};

QTEST_GUILESS_MAIN(TestCliLabLoop)
#include "tst_clilabloop.moc"
