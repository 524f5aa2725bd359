// `conclave train-router` and `conclave calibrate-threshold` end to end: a
// simulated experiment of the learned router's training design, a router
// trained from it (the printed table, the domain note, the file), bad input,
// a threshold calibrated for a share and written into a copy of the example,
// and the copy running with its router (the router's span notes its decision).
#include <QtTest>

#include "support/CliProcess.h"

#include "conclave/routing/RouterFile.h"

#include <QFile>
#include <QTemporaryDir>

using namespace testsupport;

namespace {

const QString kBoth = QStringLiteral(CONCLAVE_RESOURCES "/examples/learned-router/both-answer.team.json");
const QString kExample = QStringLiteral(CONCLAVE_RESOURCES "/examples/learned-router.team.json");

} // namespace

class TestCliTrainRouter : public QObject {
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
            runConclave({"eval", kBoth, "--taskset", "math", "--sample", "40", "--seeds", "2", "--db", m_db});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        m_experiment = experimentId(r.out);
        QVERIFY(!m_experiment.isEmpty());
    }

    void trainsAndPrintsEachModel()
    {
        const auto out = m_dir.filePath("router.json");
        const auto r = runConclave({"train-router", m_experiment, "--db", m_db, "-o", out});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.split('\n'),
                 (QStringList{
                     "wrote " + out + ": logistic router over 2 models, trained on 29 tasks (116 answers) of 1 experiment",
                     "  weights: separate per model (cross-validated error of the differences between models 0.1492, "
                     "common 0.1685)",
                     "held out: 11 tasks (30 %, seed 0)",
                     "  model                 answers  base rate       C  held-out log loss  AUROC  domain-only AUROC",
                     "  local/frontier-70b         58      0.879  0.2500              0.474  0.500              0.556",
                     "  local/generalist-7b        58      0.569  0.0156              0.679  0.348              0.519",
                     "mean held-out AUROC 0.424 (domain-only 0.537); the prompt's gain -0.113, 95 % CI [-0.569, "
                     "+0.370] (paired bootstrap over held-out tasks)",
                     "the prompt adds nothing over the domain: AUROC 0.42 vs 0.54 domain-only",
                     "",
                 }));
        const auto loaded = conclave::RouterFile::load(out.toStdString());
        QVERIFY(loaded.model);
        QCOMPARE(loaded.model->models, (std::vector<std::string>{"local/frontier-70b", "local/generalist-7b"}));
        QCOMPARE(loaded.model->tasks.size() + loaded.model->heldoutTasks.size(), size_t(40));
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("err");
        QTest::newRow("unknown method") << QStringList{"--method", "forest"}
                                        << "train-router: --method: expected logistic or knn, got \"forest\"\n";
        QTest::newRow("unknown weights") << QStringList{"--weights", "pooled"}
                                         << "train-router: --weights: expected chosen, separate or common, got "
                                            "\"pooled\"\n";
        QTest::newRow("holdout of 1") << QStringList{"--holdout", "1"}
                                      << "train-router: --holdout: expected a share from 0 (train on every task) to "
                                         "below 1, got 1.000\n";
        QTest::newRow("a model that never answered")
            << QStringList{"--models", "local/frontier-70b,local/tiny-1b"}
            << "train-router: model \"local/tiny-1b\" gave no scored answer in these experiments (answering: "
               "local/frontier-70b, local/generalist-7b)\n";
    }
    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, err);
        const auto out = m_dir.filePath("bad.json");
        const auto r = runConclave(QStringList{"train-router", m_experiment, "--db", m_db, "-o", out} + args);
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, err);
        QVERIFY(!QFile::exists(out));
    }

    void calibratesAThresholdAndRunsWithIt()
    {
        // A copy of the example beside its router file.
        const auto team = m_dir.filePath("learned-router.team.json");
        QVERIFY(QFile::copy(kExample, team));
        QVERIFY(QFile::copy(QStringLiteral(CONCLAVE_RESOURCES "/examples/learned-router.router.json"),
                            m_dir.filePath("learned-router.router.json")));
        const auto r = runConclave(
            {"calibrate-threshold", team, "--taskset", "mixed-small", "--strong-share", "0.4", "--write"});
        QCOMPARE(r.exitCode, 0);
        qInfo().noquote() << r.out;
        const auto lines = r.out.split('\n');
        QCOMPARE(lines.size(), 3);
        // 40 % of 25 tasks is 10: within one task of it.
        QVERIFY2(lines[0].contains(" sends 10 of 25 tasks (40.0 %) to local/frontier-70b (asked 40.0 %)"),
                 qPrintable(lines[0]));
        QVERIFY(lines[1].startsWith("wrote " + team + ": route.threshold = "));
        const auto run = runConclave({"run", team, "--task", "math-001", "--json"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("\"note\": \"route local/"), qPrintable(run.out.left(400)));
    }

    void maxUtilityHasNoThreshold()
    {
        const auto team = m_dir.filePath("utility.team.json");
        QFile in(kExample);
        QVERIFY(in.open(QIODevice::ReadOnly));
        auto text = QString::fromUtf8(in.readAll());
        text.replace("\"policy\": \"strong_weak\"", "\"policy\": \"max_utility\", \"cost_weight\": 0.5");
        QFile out(team);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        const auto r = runConclave({"calibrate-threshold", team, "--taskset", "mixed-small"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("calibrate-threshold: router \"route\" has policy max_utility, which has no "
                                "threshold: it weighs cost by cost_weight (sweep it with conclave eval --vary)\n"));
    }
};

QTEST_GUILESS_MAIN(TestCliTrainRouter)
#include "tst_clitrainrouter.moc"
