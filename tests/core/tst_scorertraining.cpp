// ScorerTraining: cascades reconstructed from independent answers (exact
// instances and features), the default member order, the errors, and fixed
// held-out figures on a synthetic data set where stated confidence says
// nothing and the answers themselves say much.
#include "conclave/experiment/ScorerTraining.h"
#include "conclave/local/Gate.h"
#include "conclave/routing/ScorerFile.h"

#include <QtTest>

#include <cmath>

using namespace conclave;

namespace {

std::shared_ptr<const Gate> shippedGate()
{
    static const auto gate = [] {
        auto result = Gate::load(CONCLAVE_RESOURCES "/models/gate.json");
        if (!result.gate)
            qFatal("the shipped gate does not load");
        return std::make_shared<const Gate>(std::move(*result.gate));
    }();
    return gate;
}

void addTask(CalibrationSamples& samples, const std::string& id, const std::string& prompt)
{
    samples.tasks["synthetic\n" + id] = {"synthetic",
                                         Task{.id = id, .domain = "general", .prompt = prompt, .answer = "x"}};
}

void addAnswer(CalibrationSamples& samples, const std::string& id, const std::string& model, uint64_t seed,
               const std::string& answer, bool right, double confidence, bool answerLine = true, size_t experiment = 0)
{
    CalibrationSamples::Answer a;
    a.model = model;
    a.task = "synthetic\n" + id;
    a.answer = answer;
    a.correct = right;
    a.confidence = confidence;
    a.seed = seed;
    a.experiment = experiment;
    a.answerLine = answerLine;
    samples.answers.push_back(a);
}

// Stated confidence is noise (0.9 and 0.6 in turn, whatever the outcome).
// "cheap" is right on sums and answers "maybe" (no choice) to yes/no
// questions, wrong; "strong" is right but on every seventh task, where it
// answers "no idea". Tasks 0–59 train, 60–89 are held out; two seeds each.
std::pair<CalibrationSamples, CalibrationSamples> noisyConfidence()
{
    CalibrationSamples train, heldout;
    train.experiments = {"e-noise"};
    heldout.experiments = {"e-noise"};
    for (int i = 0; i < 90; ++i) {
        auto& samples = i < 60 ? train : heldout;
        const std::string id = "t" + std::to_string(i);
        const bool sum = i % 2 == 0;
        const std::string truth = sum ? std::to_string(13 * i + 7 + 29 * i % 97) : (i % 4 == 1 ? "yes" : "no");
        addTask(samples, id,
                sum ? "What is " + std::to_string(13 * i + 7) + " + " + std::to_string(29 * i % 97) + "?"
                    : "Is the " + std::to_string(i) + "th stone heavier than the last? Answer yes or no.");
        for (uint64_t seed : {1, 2}) {
            const double noise = (i + int(seed)) % 2 == 0 ? 0.9 : 0.6;
            addAnswer(samples, id, "cheap", seed, sum ? truth : "maybe", sum, noise, seed == 1);
            const bool strongRight = (i + int(seed)) % 7 != 0;
            addAnswer(samples, id, "strong", seed, strongRight ? truth : "no idea", strongRight, 1.5 - noise);
        }
    }
    return {train, heldout};
}

} // namespace

class TestScorerTraining : public QObject {
    Q_OBJECT

private slots:
    void instancesAreCascadeSteps()
    {
        CalibrationSamples s;
        s.experiments = {"e1", "e2"};
        addTask(s, "a", "Is it yes or no?");
        addAnswer(s, "a", "m1", 1, "yes", false, 0.7, true);
        addAnswer(s, "a", "m2", 1, "yes", false, 0.6, false);
        addAnswer(s, "a", "m3", 1, "no", true, 0.9, true);
        addAnswer(s, "a", "m3", 1, "yes", false, 0.1, true);  // a second m3 answer there: the first counts
        addAnswer(s, "a", "m1", 2, "no", true, 0.8, true);    // seed 2: m2 and m3 did not answer
        addAnswer(s, "a", "m1", 1, "no", true, 0.8, true, 1); // another experiment: alone
        const auto steps = ScorerTraining::instances(s, {"m1", "m2", "m3"});
        QCOMPARE(steps.size(), size_t(3));
        const double yes = 0.20068666377598746; // ln 4 / ln 1000
        const double no = 0.15904041823988746;  // ln 3 / ln 1000
        using F = std::array<double, AnswerFeatures::kCount>;
        QCOMPARE(steps[0].model, size_t(0));
        QCOMPARE(steps[0].answer, (F{yes, 0, 1, 1, 0.7, 0, 0}));
        QCOMPARE(steps[1].model, size_t(1));
        QCOMPARE(steps[1].answer, (F{yes, 0, 1, 0, 0.6, 1, 0.5}));
        QCOMPARE(steps[2].model, size_t(2));
        QCOMPARE(steps[2].answer, (F{no, 0, 1, 1, 0.9, 0, 2.0 / 3.0}));
        QCOMPARE(steps[2].right, true);
        QCOMPARE(steps[2].confidence, 0.9);
        QCOMPARE(steps[2].task, std::string("synthetic\na"));
        // In another order the features follow it.
        const auto reversed = ScorerTraining::instances(s, {"m3", "m1"});
        QCOMPARE(reversed.size(), size_t(2));
        QCOMPARE(reversed[1].answer, (F{yes, 0, 1, 1, 0.7, 0, 0.5}));
    }

    void defaultOrderIsAscendingAccuracy()
    {
        const auto [train, heldout] = noisyConfidence();
        QCOMPARE(ScorerTraining::byAccuracy(train), (std::vector<std::string>{"cheap", "strong"}));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("models");
        QTest::addColumn<QString>("expected");
        QTest::newRow("an unknown model")
            << QStringList{"cheap", "nobody"}
            << "model \"nobody\" gave no scored answer in these experiments (answering: cheap, strong)";
    }

    void errors()
    {
        QFETCH(QStringList, models);
        QFETCH(QString, expected);
        auto [train, heldout] = noisyConfidence();
        ScorerTraining::Options options;
        for (const auto& m : models)
            options.models.push_back(m.toStdString());
        std::string error;
        QVERIFY(!ScorerTraining::fromSamples(train, &heldout, options, shippedGate(), error));
        QCOMPARE(QString::fromStdString(error), expected);
    }

    void noSharedCascade()
    {
        CalibrationSamples s;
        s.experiments = {"e"};
        addTask(s, "a", "?");
        addTask(s, "b", "?");
        addAnswer(s, "a", "m1", 1, "x", true, 0.5);
        addAnswer(s, "b", "m2", 1, "x", true, 0.5);
        std::string error;
        QVERIFY(!ScorerTraining::fromSamples(s, nullptr, {}, shippedGate(), error));
        QCOMPARE(QString::fromStdString(error),
                 QString("no task and seed of one experiment was answered by every one of m1, m2: a scorer learns "
                         "from trials in which the cascade's models answered the same task"));
        CalibrationSamples empty;
        QVERIFY(!ScorerTraining::fromSamples(empty, nullptr, {}, shippedGate(), error));
        QCOMPARE(QString::fromStdString(error),
                 QString("these experiments hold no scored answer to train on (a scorer learns from trials whose "
                         "experts answered tasks with reference answers)"));
    }

    void heldOutFigures()
    {
        const auto [train, heldout] = noisyConfidence();
        ScorerTraining::Options options;
        options.holdout = 0.25;
        options.seed = 3;
        std::string error;
        const auto result = ScorerTraining::fromSamples(train, &heldout, options, shippedGate(), error);
        QVERIFY2(result, error.c_str());
        const auto& m = result->model;
        QCOMPARE(m.models, (std::vector<std::string>{"cheap", "strong"}));
        QCOMPARE(m.answers, (std::vector<int64_t>{120, 120}));
        QCOMPARE(m.tasks.size(), size_t(60));
        QCOMPARE(m.heldoutTasks.size(), size_t(30));
        QCOMPARE(result->warnings.size(), size_t(0));
        QCOMPARE(m.heldout.size(), size_t(2));
        const auto line = [](const ScorerModel::HeldOut& h) {
            return QStringLiteral("%1 %2 loss %3 auroc %4 confidence %5")
                .arg(QString::fromStdString(h.model))
                .arg(h.answers)
                .arg(*h.logLoss, 0, 'f', 6)
                .arg(*h.auroc, 0, 'f', 6)
                .arg(*h.confidenceAuroc, 0, 'f', 6);
        };
        QCOMPARE(line(m.heldout[0]), QString("cheap 60 loss 0.011845 auroc 1.000000 confidence 0.500000"));
        QCOMPARE(line(m.heldout[1]), QString("strong 60 loss 0.005876 auroc 1.000000 confidence 0.467320"));
        // The file holds it all.
        const auto loaded = ScorerFile::fromJsonText(ScorerFile::toJsonText(m));
        QVERIFY(loaded.model);
        QCOMPARE(loaded.model->heldout.size(), size_t(2));
    }

    void fewAnswersWarn()
    {
        auto [train, heldout] = noisyConfidence();
        train.answers.resize(40); // tasks 0–9: 20 answers a model
        std::string error;
        const auto result = ScorerTraining::fromSamples(train, nullptr, {}, shippedGate(), error);
        QVERIFY2(result, error.c_str());
        QCOMPARE(result->warnings.size(), size_t(2));
        QCOMPARE(QString::fromStdString(result->warnings[0]),
                 QString("model cheap had only 20 training answers (fewer than 100): its scores rest on little"));
    }
};

QTEST_GUILESS_MAIN(TestScorerTraining)
#include "tst_scorertraining.moc"
