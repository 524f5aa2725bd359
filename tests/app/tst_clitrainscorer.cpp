// `conclave train-scorer` end to end: a simulated experiment of the scored
// cascade's training design, the scorer trained from it (the printed table,
// the few-answers warnings, the file), bad input, and the shipped example
// team running with its scorer (each step's note says the score).
#include <QtTest>

#include "support/CliProcess.h"

#include "conclave/routing/ScorerFile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace testsupport;

namespace {

const QString kAskAll = QStringLiteral(CONCLAVE_RESOURCES "/examples/scored-cascade/ask-all.team.json");
const QString kExample = QStringLiteral(CONCLAVE_RESOURCES "/examples/scored-cascade.team.json");
const QString kModels = QStringLiteral("local/tiny-1b,local/generalist-7b,local/frontier-70b");

} // namespace

class TestCliTrainScorer : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db;
    QString m_experiment;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath("runs.sqlite");
        const auto r =
            runConclave({"eval", kAskAll, "--taskset", "reasoning", "--sample", "20", "--seeds", "2", "--db", m_db});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        m_experiment = experimentId(r.out);
        QVERIFY(!m_experiment.isEmpty());
    }

    void trainsAndPrintsEachModel()
    {
        const auto out = m_dir.filePath("scorer.json");
        const auto r = runConclave({"train-scorer", m_experiment, "--models", kModels, "--db", m_db, "-o", out});
        QCOMPARE(r.exitCode, 0);
        // 20 tasks, 13 trained on and 7 held out (trials where every member answered); two seeds each. A
        // model right (or wrong) on every held-out answer has no AUROC.
        QCOMPARE(
            r.out.split('\n'),
            (QStringList{
                "wrote " + out + ": cascade scorer over 3 models, trained on 13 tasks (78 answers) of 1 experiment",
                "held out: 7 tasks (30 %, seed 0)",
                "  step  model                 answers  base rate       C  held-out answers  log loss  scorer "
                "AUROC  confidence AUROC",
                "     1  local/tiny-1b              26      0.077      64                14     0.004             "
                "-                 -",
                "     2  local/generalist-7b        26      0.385      16                14     0.360         "
                "1.000             0.625",
                "     3  local/frontier-70b         26      1.000  0.0156                14     0.019             "
                "-                 -",
                "",
            }));
        QCOMPARE(r.err, QString("warning: model local/tiny-1b had only 26 training answers (fewer than 100): its "
                                "scores rest on little\n"
                                "warning: model local/generalist-7b had only 26 training answers (fewer than 100): "
                                "its scores rest on little\n"
                                "warning: model local/frontier-70b had only 26 training answers (fewer than 100): "
                                "its scores rest on little\n"));
        const auto loaded = conclave::ScorerFile::load(out.toStdString());
        QVERIFY(loaded.model);
        QCOMPARE(loaded.model->models,
                 (std::vector<std::string>{"local/tiny-1b", "local/generalist-7b", "local/frontier-70b"}));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("expected");
        QTest::newRow("holdout 1") << QStringList{"--holdout", "1"}
                                   << "train-scorer: --holdout: expected a share from 0 (train on every task) to "
                                      "below 1, got 1.000\n";
        QTest::newRow("a model that never answered")
            << QStringList{"--models", "local/tiny-1b,local/math-13b"}
            << "train-scorer: model \"local/math-13b\" gave no scored answer in these experiments (answering: "
               "local/frontier-70b, local/generalist-7b, local/tiny-1b)\n";
    }

    void badInput()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, expected);
        const auto r = runConclave(
            QStringList{"train-scorer", m_experiment, "--db", m_db, "-o", m_dir.filePath("bad.json")} + extra);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, expected);
        QVERIFY(!QFile::exists(m_dir.filePath("bad.json")));
    }

    void theExampleRunsWithItsScorer()
    {
        const auto r = runConclave({"run", kExample, "--input",
                                    "All bloops are razzies. All razzies are lazzies. Does it necessarily follow that "
                                    "all bloops are lazzies? Answer yes or no.",
                                    "--json", "--db", m_dir.filePath("example.sqlite")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto run = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QStringList notes;
        for (const auto& span : run["spans"].toArray()) {
            const auto s = span.toObject();
            if (s["kind"].toString() == "round")
                notes << s["name"].toString() + " | " + s["note"].toString();
        }
        QCOMPARE(notes, (QStringList{"step 1: tiny | score 0.22 < 0.70: escalate",
                                     "step 2: generalist | score 0.40 < 0.70: escalate",
                                     "step 3: frontier | score 0.97 \u2265 0.70: stop"}));
    }
};

QTEST_GUILESS_MAIN(TestCliTrainScorer)
#include "tst_clitrainscorer.moc"
