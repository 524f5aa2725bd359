// A strong_weak router, or a two-member cascade, replayed on measured
// single-model outcomes (experiment/RouterEvaluation): which tasks each
// share sends to the strong model, what that costs, and the tasks left out.
#include <QtTest>

#include "conclave/experiment/RouterEvaluation.h"

using namespace conclave;

namespace {

constexpr double kWeakCost = 1;
constexpr double kStrongCost = 10;

// Four tasks, one seed: the weak model is right on t1 and t2, the strong one on all.
// Predicted gaps p_strong − p_weak: t1 0, t2 0.3, t3 0.7, t4 0.5.
ModelOutcomes outcomes()
{
    ModelOutcomes o;
    for (const std::string id : {"t1", "t2", "t3", "t4"}) {
        const Task task{.id = id, .domain = "math", .prompt = "prompt " + id, .answer = "1"};
        o.add("set", "h", task, "weak", 1, {id == "t1" || id == "t2", kWeakCost});
        o.add("set", "h", task, "strong", 1, {true, kStrongCost});
    }
    // A task only the weak model ran is left out.
    o.add("set", "h", Task{.id = "t5", .domain = "math", .prompt = "p5", .answer = "1"}, "weak", 1, {true, 1});
    return o;
}

std::pair<double, double> predicted(const Task& task)
{
    if (task.id == "t1")
        return {0.9, 0.9};
    if (task.id == "t2")
        return {0.6, 0.9};
    if (task.id == "t3")
        return {0.2, 0.9};
    return {0.4, 0.9};
}

std::vector<std::string> keys()
{
    return {"set\nt1", "set\nt2", "set\nt3", "set\nt4", "set\nt5", "set\nunknown"};
}

} // namespace

class TestRouterEvaluation : public QObject {
    Q_OBJECT

private slots:
    void routerSendsTheLargestGapsToTheStrongModel()
    {
        RouterEvaluation::Options options;
        options.strong = "strong";
        options.weak = "weak";
        options.shares = {0, 0.5, 1};
        std::string error;
        const auto input = RouterEvaluation::strongWeak(outcomes(), keys(), predicted, options, error);
        QVERIFY2(input, error.c_str());
        QCOMPARE(input->references.size(), size_t(2));
        QCOMPARE(input->references[0].quality, (std::vector<double>{1, 1, 0, 0}));
        QCOMPARE(input->references[1].costUsd, (std::vector<double>{10, 10, 10, 10}));
        const auto& curve = input->curves.front();
        QCOMPARE(curve.name, std::string("learned strong_weak (strong / weak)"));
        QCOMPARE(*curve.weak, size_t(0));
        QCOMPARE(*curve.strong, size_t(1));
        QCOMPARE(curve.variants.size(), size_t(3));
        QCOMPARE(curve.variants[0].strongShare, (std::vector<double>{0, 0, 0, 0}));
        // Half the tasks: t3 and t4, the two largest gaps; both weak misses recovered.
        QCOMPARE(curve.variants[1].strongShare, (std::vector<double>{0, 0, 1, 1}));
        QCOMPARE(curve.variants[1].quality, (std::vector<double>{1, 1, 1, 1}));
        QCOMPARE(curve.variants[1].costUsd, (std::vector<double>{1, 1, 10, 10}));
        QCOMPARE(curve.variants[2].strongShare, (std::vector<double>{1, 1, 1, 1}));
    }

    void aCascadePaysForBothModelsWhenItEscalates()
    {
        RouterEvaluation::Options options;
        options.strong = "strong";
        options.weak = "weak";
        options.shares = {0.5};
        options.cascade = true;
        options.name = "stated confidence";
        std::string error;
        const auto input = RouterEvaluation::strongWeak(outcomes(), keys(), predicted, options, error);
        QVERIFY2(input, error.c_str());
        const auto& curve = input->curves.front();
        QCOMPARE(curve.name, std::string("stated confidence"));
        QCOMPARE(curve.variants[0].costUsd, (std::vector<double>{1, 1, 11, 11}));
        // The references stay the models alone.
        QCOMPARE(input->references[1].costUsd, (std::vector<double>{10, 10, 10, 10}));
    }

    void noSharedTaskIsAnError()
    {
        RouterEvaluation::Options options;
        options.strong = "strong";
        options.weak = "weak";
        std::string error;
        QVERIFY(!RouterEvaluation::strongWeak(outcomes(), {"set\nt5"}, predicted, options, error));
        QCOMPARE(error, std::string("no task was measured on both weak and strong"));
    }
};

QTEST_GUILESS_MAIN(TestRouterEvaluation)
#include "tst_routerevaluation.moc"
