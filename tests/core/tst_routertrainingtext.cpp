// RouterTrainingText: the lines `conclave train-router` prints and the
// studio's Train Router dialog shows, exactly, for hand-made results.
#include "conclave/experiment/RouterTrainingText.h"

#include <QtTest>

using namespace conclave;

namespace {

QString q(const std::optional<std::string>& text)
{
    return text ? QString::fromStdString(*text) : QStringLiteral("(none)");
}

RouterModel twoModels()
{
    RouterModel model;
    model.models = {"a", "b"};
    model.answers = {60, 52};
    model.experiments = {"e1"};
    model.tasks.resize(28);
    return model;
}

} // namespace

class TestRouterTrainingText : public QObject {
    Q_OBJECT

private slots:
    void figure_data()
    {
        QTest::addColumn<bool>("set");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("unset") << false << 0.0 << "-";
        QTest::newRow("rounded down") << true << 0.71249 << "0.712";
        QTest::newRow("rounded up") << true << 0.8896 << "0.890";
        QTest::newRow("whole") << true << 1.0 << "1.000";
    }
    void figure()
    {
        QFETCH(bool, set);
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(RouterTrainingText::figure(set ? std::optional(value) : std::nullopt)), text);
    }

    void trainedAndHeldOut()
    {
        auto model = twoModels();
        QCOMPARE(QString::fromStdString(RouterTrainingText::trained(model)),
                 QString("logistic router over 2 models, trained on 28 tasks (112 answers) of 1 experiment"));
        QCOMPARE(q(RouterTrainingText::heldOut(model)), QString("(none)"));
        QCOMPARE(q(RouterTrainingText::neighbours(model)), QString("(none)"));
        model.method = RouterModel::Method::Knn;
        model.experiments.push_back("e2");
        model.heldoutTasks.resize(12);
        model.holdout = 0.3;
        model.seed = 7;
        QCOMPARE(QString::fromStdString(RouterTrainingText::trained(model)),
                 QString("knn router over 2 models, trained on 28 tasks (112 answers) of 2 experiments"));
        QCOMPARE(q(RouterTrainingText::heldOut(model)), QString("held out: 12 tasks (30 %, seed 7)"));
        model.k = 5;
        QCOMPARE(q(RouterTrainingText::neighbours(model)),
                 QString("k 5 (chosen by 5-fold cross-validation grouped by task)"));
    }

    void meanAuroc()
    {
        RouterTraining::Result result;
        result.model = twoModels();
        QCOMPARE(q(RouterTrainingText::meanAuroc(result)), QString("(none)"));
        result.auroc = 0.5882;
        result.domainAuroc = 0.5911;
        QCOMPARE(q(RouterTrainingText::meanAuroc(result)), QString("mean held-out AUROC 0.588 (domain-only 0.591)"));
        result.gainCi = std::pair{-0.0468, 0.0404};
        QCOMPARE(q(RouterTrainingText::meanAuroc(result)),
                 QString("mean held-out AUROC 0.588 (domain-only 0.591); the prompt's gain -0.003, 95 % CI [-0.047, "
                         "+0.040] (paired bootstrap over held-out tasks)"));
    }
};

QTEST_GUILESS_MAIN(TestRouterTrainingText)
#include "tst_routertrainingtext.moc"
