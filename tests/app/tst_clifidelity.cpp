// `conclave fidelity`: calibrate on one part of a measured experiment's
// tasks, predict every design on the other. Here the "measurement" is the
// simulator's own (three experts on distinct models, alone and voting), so
// the replay of every recorded call must reproduce each design exactly, and
// the report's structure, lines and refusals are checked exactly.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "support/CliProcess.h"

namespace {

using Result = testsupport::CliResult;
using testsupport::experimentId;

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

QByteArray expertsTeam(const char* name, bool vote)
{
    QByteArray nodes = "{\"id\": \"in\", \"kind\": \"input\"}, "
                       "{\"id\": \"a\", \"kind\": \"expert\", \"model\": \"local/generalist-7b\", \"prompt\": \"{{input}}\"}, ";
    QByteArray edges = "{\"from\": \"in\", \"to\": \"a\"}, ";
    if (vote) {
        nodes += "{\"id\": \"b\", \"kind\": \"expert\", \"model\": \"local/reasoner-34b\", \"prompt\": \"{{input}}\"}, "
                 "{\"id\": \"c\", \"kind\": \"expert\", \"model\": \"local/math-13b\", \"prompt\": \"{{input}}\"}, "
                 "{\"id\": \"vote\", \"kind\": \"aggregator\", \"strategy\": \"majority\"}, ";
        edges += "{\"from\": \"in\", \"to\": \"b\"}, {\"from\": \"in\", \"to\": \"c\"}, {\"from\": \"a\", \"to\": "
                 "\"vote\"}, {\"from\": \"b\", \"to\": \"vote\"}, {\"from\": \"c\", \"to\": \"vote\"}, {\"from\": "
                 "\"vote\", \"to\": \"out\"}";
    } else {
        edges += "{\"from\": \"a\", \"to\": \"out\"}";
    }
    return QByteArray("{\"conclave\": 1, \"name\": \"") + name +
           "\", \"backends\": {\"local\": {\"kind\": \"local-moe\"}}, \"defaults\": {\"backend\": \"local\"}, "
           "\"nodes\": [" + nodes + "{\"id\": \"out\", \"kind\": \"output\"}], \"edges\": [" + edges + "]}";
}

// A coordinator of the same three models (cascade or debate): a cascade's
// second member and a debate's second round are one role ("expert:0#2").
QByteArray meetingTeam(const char* name, const char* mode)
{
    const bool debate = QByteArray(mode) == "debate";
    QByteArray lead = QByteArray("{\"id\": \"lead\", \"kind\": \"coordinator\", \"mode\": \"") + mode + "\", " +
                      (debate ? "\"max_rounds\": 2}, " : "\"threshold\": 0.8}, ");
    QByteArray nodes = "{\"id\": \"in\", \"kind\": \"input\"}, " + lead;
    QByteArray edges = "{\"from\": \"in\", \"to\": \"lead\"}, {\"from\": \"lead\", \"to\": \"out\"}";
    const char* models[] = {"local/generalist-7b", "local/reasoner-34b", "local/math-13b"};
    for (int i = 0; i < 3; ++i) {
        const QByteArray id = "m" + QByteArray::number(i);
        nodes += "{\"id\": \"" + id + "\", \"kind\": \"expert\", \"model\": \"" + models[i] +
                 "\", \"prompt\": \"{{task}}\\n{{transcript}}\"}, ";
        edges += ", {\"from\": \"lead\", \"to\": \"" + id + "\", \"role\": \"member\"}";
    }
    return QByteArray("{\"conclave\": 1, \"name\": \"") + name +
           "\", \"backends\": {\"local\": {\"kind\": \"local-moe\"}}, \"defaults\": {\"backend\": \"local\"}, "
           "\"nodes\": [" + nodes + "{\"id\": \"out\", \"kind\": \"output\"}], \"edges\": [" + edges + "]}";
}

} // namespace

class TestCliFidelity : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_both;   // single and vote, measured
    QString m_single; // single alone
    QMap<QString, double> m_accuracy; // of m_both's designs over every task, as `experiments show --json` gives it

    QString path(const char* name) const { return m_dir.filePath(name); }
    QString db() const { return path("runs.sqlite"); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        write(path("single.team.json"), expertsTeam("Single", false));
        write(path("vote.team.json"), expertsTeam("Vote", true));
        const auto both = cli({"eval", path("single.team.json"), path("vote.team.json"), "--taskset", "mixed-small",
                               "--seeds", "2", "--db", db()});
        QCOMPARE(both.exitCode, 0);
        m_both = experimentId(both.out);
        const auto single = cli({"eval", path("single.team.json"), "--taskset", "mixed-small", "--seeds", "2", "--db", db()});
        QCOMPARE(single.exitCode, 0);
        m_single = experimentId(single.out);
        QVERIFY(m_both.startsWith("e-") && m_single.startsWith("e-"));
        const auto shown = cli({"experiments", "show", m_both, "--db", db(), "--json"});
        QCOMPARE(shown.exitCode, 0);
        for (const auto& value : QJsonDocument::fromJson(shown.out.toUtf8()).object()["designs"].toArray())
            m_accuracy[value.toObject()["name"].toString()] = value.toObject()["accuracy"].toDouble();
        QCOMPARE(m_accuracy.size(), 2);
    }

    void predictsEveryDesignOnTheHeldOutTasks()
    {
        const auto r = cli({"fidelity", m_both, "--db", db(), "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(report["experiments"].toArray(), QJsonArray{m_both});
        QCOMPARE(report["holdout"].toDouble(), 0.5);
        QCOMPARE(report["resamples"].toInt(), 200);
        QCOMPARE(report["calibration_tasks"].toInt() + report["held_out_tasks"].toInt(), 25);
        QVERIFY(report["held_out_tasks"].toInt() > 0 && report["calibration_tasks"].toInt() > 0);
        QVERIFY(report["limitation"].isNull());
        const auto designs = report["designs"].toArray();
        QCOMPARE(designs.size(), 2);
        QCOMPARE(designs[0].toObject()["name"].toString(), QString("Single"));
        QCOMPARE(designs[0].toObject()["combines"].toBool(), false);
        QCOMPARE(designs[1].toObject()["combines"].toBool(), true);
        for (const auto& value : designs) {
            const auto d = value.toObject();
            const auto measured = d["measured"].toObject();
            QCOMPARE(measured["tasks"].toInt(), report["held_out_tasks"].toInt());
            // The replay of its own recorded calls reproduces the measurement exactly.
            QCOMPARE(d["self_replay"].toObject()["accuracy"].toDouble(), measured["accuracy"].toDouble());
            QCOMPARE(d["self_replay"].toObject()["cost_ratio"].toDouble(), 1.0);
            QVERIFY(d["simulated"].isObject() && d["replayed"].isObject());
            const auto simulated = d["simulated"].toObject();
            // Predicted from a calibration of the measured models on the other tasks: a CI wider than nothing.
            const auto ci = simulated["accuracy_ci"].toArray();
            QVERIFY(ci[0].toDouble() < simulated["accuracy"].toDouble());
            QVERIFY(ci[1].toDouble() > simulated["accuracy"].toDouble());
        }
    }

    void theTableSaysWhatItIs()
    {
        const auto r = cli({"fidelity", m_both, "--db", db(), "--no-calibration-uncertainty", "--seed", "3",
                            "-o", path("report.md")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("fidelity of the local-moe SIMULATOR against " + m_both + ": calibrated on "));
        QVERIFY(r.out.contains("held-out tasks (--holdout 0.5, seed 3)\n"));
        QVERIFY(r.out.contains("\ndesign "));
        QVERIFY(r.out.contains("\nSingle "));
        QVERIFY(r.out.contains("\nVote "));
        QVERIFY(r.out.contains("simulated CIs: simulation noise only\n"));
        QVERIFY(r.out.contains(" of 2 simulated predictions within 1.96 combined standard errors of the measurement\n"));
        QFile md(path("report.md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        const auto text = QString::fromUtf8(md.readAll());
        QVERIFY(text.startsWith("## Simulator fidelity\n\n> **Simulated predictions**"));
        QVERIFY(text.contains("| Vote | "));
    }

    // Cross-fitting: every task is predicted once, by a calibration that
    // never read it, and compared with the measurement on every task.
    void crossFitPredictsEveryTaskOnce()
    {
        const auto r = cli({"fidelity", m_both, "--db", db(), "--folds", "2", "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(report["folds"].toInt(), 2);
        QCOMPARE(report["holdout"].toDouble(), 0.5);
        QCOMPARE(report["held_out_tasks"].toInt(), 25);
        QCOMPARE(report["calibration_tasks"].toInt(), 25);
        // Each answer is read by the one calibration of the other part; with three parts, by two.
        const auto three = cli({"fidelity", m_both, "--db", db(), "--folds", "3", "--json", "--no-replay",
                                "--no-calibration-uncertainty"});
        QCOMPARE(three.exitCode, 0);
        const auto threeReport = QJsonDocument::fromJson(three.out.toUtf8()).object();
        QCOMPARE(threeReport["answers"].toInt(), 2 * report["answers"].toInt());
        const auto designs = report["designs"].toArray();
        QCOMPARE(designs.size(), 2);
        for (const auto& value : designs) {
            const auto d = value.toObject();
            const auto measured = d["measured"].toObject();
            // The measurement is the experiment's own, over all of its tasks.
            QCOMPARE(measured["tasks"].toInt(), 25);
            QCOMPARE(measured["accuracy"].toDouble(), m_accuracy.value(d["name"].toString()));
            // The folds' replays of every recorded call, pooled, reproduce it exactly.
            QCOMPARE(d["self_replay"].toObject()["accuracy"].toDouble(), measured["accuracy"].toDouble());
            QCOMPARE(d["self_replay"].toObject()["cost_ratio"].toDouble(), 1.0);
            QCOMPARE(d["simulated"].toObject()["tasks"].toInt(), 25);
            // The held-out tasks' difficulties were not measured: each of their 10 simulated seeds
            // draws one anew (ItemBank::difficulty per trial), so the prediction averages over them.
            QCOMPARE(QString::number(d["simulated"].toObject()["accuracy"].toDouble(), 'f', 4),
                     QString(d["name"].toString() == "Single" ? "0.4200" : "0.7080"));
        }
    }

    void crossFitSaysSoAndRefusesWhatCannotBe()
    {
        auto r = cli({"fidelity", m_both, "--db", db(), "--folds", "2", "--seed", "3", "--no-replay",
                      "--no-calibration-uncertainty"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("fidelity of the local-moe SIMULATOR against " + m_both +
                                  ": 2-fold cross-fit: each of 2 parts of 25 tasks predicted from a calibration on "
                                  "the others ("),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(" answers read in all; --folds 2, seed 3)\n"));
        r = cli({"fidelity", m_both, "--db", db(), "--folds", "11"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("fidelity: --folds: expected 2 to 10 (1 for one split), got 11\n"));
        r = cli({"fidelity", m_both, "--db", db(), "--folds", "2", "--holdout", "0.3"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("--holdout excludes --folds\nRun with --help for more information.\n"));
    }

    // Each design's own calls replay it exactly, even where another design
    // made a call in the same role: the cascade's escalations do not stand in
    // for the debate's second round.
    void selfReplayReproducesMeetingsExactly()
    {
        write(path("cascade.team.json"), meetingTeam("Cascade", "cascade"));
        write(path("debate.team.json"), meetingTeam("Debate", "debate"));
        const auto measured = cli({"eval", path("cascade.team.json"), path("debate.team.json"), "--taskset",
                                   "mixed-small", "--seeds", "2", "--db", db()});
        QCOMPARE(measured.exitCode, 0);
        const auto id = experimentId(measured.out);
        const auto r = cli({"fidelity", id, "--db", db(), "--folds", "2", "--no-calibration-uncertainty", "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto designs = QJsonDocument::fromJson(r.out.toUtf8()).object()["designs"].toArray();
        QCOMPARE(designs.size(), 2);
        for (const auto& value : designs) {
            const auto d = value.toObject();
            QCOMPARE(d["self_replay"].toObject()["accuracy"].toDouble(), d["measured"].toObject()["accuracy"].toDouble());
            QCOMPARE(d["self_replay"].toObject()["cost_ratio"].toDouble(), 1.0);
            QCOMPARE(d["self_replay"].toObject()["p95_wall_ratio"].toDouble(), 1.0);
        }
    }

    void singleModelDesignsCheckSkillsOnly()
    {
        const auto r = cli({"fidelity", m_single, "--db", db(), "--no-calibration-uncertainty", "--no-replay"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.endsWith(
            "only single-model designs were measured: this checks skills, not how models combine\n"));
    }

    void badInputSaysWhatIsWrong()
    {
        auto r = cli({"fidelity", m_both, "--db", db(), "--holdout", "1.5"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("fidelity: --holdout: expected a share between 0 and 1 (exclusive), got 1.5\n"));
        r = cli({"fidelity", m_both, "--db", db(), "-o", path("report.txt")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("fidelity: -o " + path("report.txt") + ": expected a .md or .json file\n"));
        r = cli({"fidelity", "e-000000000000", "--db", db()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("fidelity: ") && r.err.contains("e-000000000000"), qPrintable(r.err));
        QVERIFY(!QFile::exists(path("report.txt")));
    }
};

QTEST_GUILESS_MAIN(TestCliFidelity)
#include "tst_clifidelity.moc"
