#include "conclave/experiment/RouterTraining.h"
#include "conclave/local/Gate.h"
#include "conclave/routing/RouterFile.h"
#include "conclave/routing/RouterPredictor.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <tuple>

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
    const std::string key = "synthetic\n" + id;
    samples.tasks[key] = {"synthetic", Task{.id = id, .domain = "general", .prompt = prompt, .answer = "x"}};
}

void addAnswer(CalibrationSamples& samples, const std::string& id, const std::string& model, uint64_t seed, bool right)
{
    CalibrationSamples::Answer a;
    a.model = model;
    a.task = "synthetic\n" + id;
    a.correct = right;
    a.seed = seed;
    samples.answers.push_back(a);
}

// Domains decide: "calc" is right on sums, "poet" on poems, each with a few exceptions.
// Tasks 0–55 train, 56–79 are held out.
std::pair<CalibrationSamples, CalibrationSamples> byDomain()
{
    CalibrationSamples train, heldout;
    train.experiments = {"e-train"};
    heldout.experiments = {"e-train"};
    const char* subjects[] = {"the sea", "autumn", "a city at night", "friendship", "the moon", "winter roads"};
    for (int i = 0; i < 80; ++i) {
        auto& samples = i < 56 ? train : heldout;
        const std::string id = "t" + std::to_string(i);
        const bool sum = i % 2 == 0;
        addTask(samples, id,
                sum ? "What is " + std::to_string(13 * i + 7) + " + " + std::to_string(29 * i % 97) + "?"
                    : std::string("Write a short poem about ") + subjects[i % 6] + ".");
        for (uint64_t seed : {1, 2}) {
            const bool flip = (i * 7 + int(seed)) % 9 == 0;
            addAnswer(samples, id, "calc", seed, sum != flip);
            addAnswer(samples, id, "poet", seed, sum == ((i + int(seed)) % 5 == 0));
        }
    }
    return {train, heldout};
}

// The prompt decides within one domain, by a name the gate has no weight for:
// "calc" is right when Zorblat asks, "big" when Quindle does; the sums are the same.
std::pair<CalibrationSamples, CalibrationSamples> byName()
{
    CalibrationSamples train, heldout;
    train.experiments = {"e-name"};
    heldout.experiments = {"e-name"};
    for (int i = 0; i < 120; ++i) {
        auto& samples = i % 3 == 2 ? heldout : train;
        const std::string id = "n" + std::to_string(i);
        const bool zorblat = (i / 3) % 2 == 0;
        addTask(samples, id, std::string(zorblat ? "Zorblat" : "Quindle") + " asks: what is " +
                                 std::to_string(10 + i / 6) + " + " + std::to_string(3 + i / 6) + "?");
        for (uint64_t seed : {1, 2, 3}) {
            addAnswer(samples, id, "calc", seed, zorblat != ((i + int(seed)) % 8 == 0));
            addAnswer(samples, id, "big", seed, !zorblat != ((i * 3 + int(seed)) % 10 == 0));
        }
    }
    return {train, heldout};
}

// What is hard is hard for both: "tricky" questions defeat "weak" mostly and
// "strong" sometimes, "plain" ones neither, with a few exceptions.
std::pair<CalibrationSamples, CalibrationSamples> byDifficulty()
{
    CalibrationSamples train, heldout;
    train.experiments = {"e-hard"};
    heldout.experiments = {"e-hard"};
    for (int i = 0; i < 120; ++i) {
        auto& samples = i % 3 == 2 ? heldout : train;
        const std::string id = "d" + std::to_string(i);
        const bool tricky = (i / 3) % 2 == 0;
        addTask(samples, id, std::string(tricky ? "A tricky one" : "A plain one") + ": how many " +
                                 std::to_string(4 + i % 7) + "s make " + std::to_string(20 + i) + "?");
        for (uint64_t seed : {1, 2}) {
            const int draw = (i * 7 + int(seed) * 3) % 10;
            addAnswer(samples, id, "strong", seed, tricky ? draw < 6 : draw < 9);
            addAnswer(samples, id, "weak", seed, tricky ? draw < 2 : draw < 8);
        }
    }
    return {train, heldout};
}

[[maybe_unused]] QString describe(const RouterTraining::Result& r)
{
    QString out;
    for (const auto& h : r.model.heldout)
        out += QString("%1 n=%2 loss=%3 auroc=%4 domain=%5; ")
                   .arg(QString::fromStdString(h.model))
                   .arg(h.answers)
                   .arg(h.logLoss.value_or(-1), 0, 'f', 4)
                   .arg(h.auroc.value_or(-1), 0, 'f', 4)
                   .arg(h.domainAuroc.value_or(-1), 0, 'f', 4);
    return out;
}

void near(double actual, double expected, const char* what)
{
    QVERIFY2(std::abs(actual - expected) < 5e-5, qPrintable(QString("%1: %2, expected %3").arg(what).arg(actual, 0, 'f', 6).arg(expected)));
}

// model, log loss, AUROC, domain-only AUROC: each to 4 decimals.
using Figures = std::vector<std::tuple<std::string, double, double, double>>;

void expectFigures(const RouterTraining::Result& r, const Figures& expected, std::pair<double, double> gain)
{
    if (qEnvironmentVariableIsSet("SHOW_FIGURES"))
        qInfo().noquote() << describe(r) << r.gainCi->first << r.gainCi->second << r.model.linear.size()
                          << (r.model.linear.empty() ? 0 : r.model.linear[0].c) << r.model.commonWeights
                          << (r.model.pooling ? r.model.pooling->separate : -1) << (r.model.pooling ? r.model.pooling->common : -1);
    QCOMPARE(r.model.heldout.size(), expected.size());
    for (size_t m = 0; m < expected.size(); ++m) {
        const auto& [model, loss, auroc, domain] = expected[m];
        const auto& h = r.model.heldout[m];
        QCOMPARE(h.model, model);
        near(*h.logLoss, loss, "log loss");
        near(*h.auroc, auroc, "AUROC");
        near(*h.domainAuroc, domain, "domain-only AUROC");
    }
    near(r.gainCi->first, gain.first, "gain CI low");
    near(r.gainCi->second, gain.second, "gain CI high");
}

} // namespace

Q_DECLARE_METATYPE(Figures)

class TestRouterTraining : public QObject {
    Q_OBJECT

private slots:
    void promptAddsNothingWhenTheDomainDecides_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<Figures>("figures");
        QTest::addColumn<double>("gainLow");
        QTest::addColumn<double>("gainHigh");
        QTest::addColumn<QString>("note");
        QTest::newRow("logistic") << int(RouterModel::Method::Logistic)
                                  << Figures{{"calc", 0.3176, 0.8930, 0.8861}, {"poet", 0.4513, 0.8663, 0.8281}}
                                  << -0.0299 << 0.0791
                                  << "the prompt adds nothing over the domain: AUROC 0.88 vs 0.86 domain-only";
        QTest::newRow("knn") << int(RouterModel::Method::Knn)
                             << Figures{{"calc", 0.3583, 0.8930, 0.8843}, {"poet", 0.4287, 0.8524, 0.8628}}
                             << -0.0259 << 0.0237
                             << "the prompt adds nothing over the domain: AUROC 0.87 vs 0.87 domain-only";
    }
    void promptAddsNothingWhenTheDomainDecides()
    {
        QFETCH(int, method);
        QFETCH(Figures, figures);
        QFETCH(double, gainLow);
        QFETCH(double, gainHigh);
        QFETCH(QString, note);
        const auto [train, heldout] = byDomain();
        RouterTraining::Options options;
        options.method = RouterModel::Method(method);
        std::string error;
        const auto result = RouterTraining::fromSamples(train, &heldout, options, shippedGate(), error);
        QVERIFY2(result, error.c_str());
        QCOMPARE(result->model.tasks.size(), size_t(56));
        QCOMPARE(result->model.heldoutTasks.size(), size_t(24));
        QCOMPARE(result->model.answers, (std::vector<int64_t>{112, 112}));
        expectFigures(*result, figures, {gainLow, gainHigh});
        QCOMPARE(QString::fromStdString(result->domainNote.value_or("")), note);
        if (result->model.method == RouterModel::Method::Knn)
            QCOMPARE(result->model.k, 5);
        QVERIFY(result->warnings.empty()); // 112 answers each: not few
    }

    void promptBeatsTheDomainWhenANameDecides()
    {
        const auto [train, heldout] = byName();
        RouterTraining::Options options;
        std::string error;
        const auto result = RouterTraining::fromSamples(train, &heldout, options, shippedGate(), error);
        QVERIFY2(result, error.c_str());
        expectFigures(*result, {{"big", 0.3449, 0.8750, 0.4690}, {"calc", 0.3675, 0.9091, 0.5424}}, {0.3251, 0.4346});
        QVERIFY(!result->domainNote);
        QCOMPARE(result->model.linear.size(), size_t(2));
        QCOMPARE(result->model.linear[0].c, 4.0);
        // Each model is right on its own names: weights common to both would tell them apart worse.
        QVERIFY(!result->model.commonWeights);
        QVERIFY(result->model.pooling);
        near(result->model.pooling->separate, 0.0488, "separate difference error");
        near(result->model.pooling->common, 0.6615, "common difference error");
    }

    void commonWeightsWhenWhatIsHardIsHardForBoth()
    {
        const auto [train, heldout] = byDifficulty();
        RouterTraining::Options options;
        std::string error;
        const auto chosen = RouterTraining::fromSamples(train, &heldout, options, shippedGate(), error);
        QVERIFY2(chosen, error.c_str());
        const auto& model = chosen->model;
        QVERIFY(model.commonWeights);
        QVERIFY(model.pooling);
        near(model.pooling->separate, 0.074683, "separate difference error");
        near(model.pooling->common, 0.074043, "common difference error");
        // One set of weights, two biases: the strong model's is the larger.
        QCOMPARE(model.linear[0].weights, model.linear[1].weights);
        QCOMPARE(model.linear[0].c, model.linear[1].c);
        near(model.linear[0].bias, 1.021491, "strong bias");
        near(model.linear[1].bias, -0.294331, "weak bias");

        // The file keeps how the weights were fitted.
        const auto reloaded = RouterFile::fromJsonText(RouterFile::toJsonText(model));
        QVERIFY(reloaded.model);
        QVERIFY(reloaded.model->commonWeights);
        QVERIFY(reloaded.model->pooling);
        near(reloaded.model->pooling->common, model.pooling->common, "reloaded common difference error");

        // Either way may be asked for; then nothing is compared.
        options.weights = RouterTrainer::Weights::Separate;
        const auto separate = RouterTraining::fromSamples(train, &heldout, options, shippedGate(), error);
        QVERIFY2(separate, error.c_str());
        QVERIFY(!separate->model.commonWeights);
        QVERIFY(!separate->model.pooling);
        QVERIFY(separate->model.linear[0].weights != separate->model.linear[1].weights);
        options.weights = RouterTrainer::Weights::Common;
        const auto common = RouterTraining::fromSamples(train, &heldout, options, shippedGate(), error);
        QVERIFY2(common, error.c_str());
        QVERIFY(common->model.commonWeights);
        QVERIFY(!common->model.pooling);
        QCOMPARE(common->model.linear[0].weights, model.linear[0].weights);
    }

    void routerFileWeightsField_data()
    {
        QTest::addColumn<QString>("weights");
        QTest::addColumn<QString>("error");
        QTest::newRow("not an object") << "true" << "/weights: expected {\"common\": true or false, ...}, got true";
        QTest::newRow("no common") << R"({"cv_difference_error": {"separate": 0.1, "common": 0.2}})"
                                   << R"(/weights: expected {"common": true or false, ...}, got an object)";
        QTest::newRow("common not a boolean") << R"({"common": "yes"})"
                                              << R"(/weights: expected {"common": true or false, ...}, got an object)";
    }
    void routerFileWeightsField()
    {
        QFETCH(QString, weights);
        QFETCH(QString, error);
        const auto [train, heldout] = byDifficulty();
        std::string failed;
        const auto trained = RouterTraining::fromSamples(train, &heldout, {}, shippedGate(), failed);
        QVERIFY2(trained, failed.c_str());
        auto doc = nlohmann::ordered_json::parse(RouterFile::toJsonText(trained->model));
        doc["weights"] = nlohmann::ordered_json::parse(weights.toStdString());
        const auto loaded = RouterFile::fromJsonText(doc.dump());
        QVERIFY(!loaded.model);
        QVERIFY(!loaded.problems.empty());
        QCOMPARE(QString::fromStdString(loaded.problems.front().pointer + ": " + loaded.problems.front().message),
                 error);
        // A file written before the field: weights fitted per model.
        doc.erase("weights");
        const auto old = RouterFile::fromJsonText(doc.dump());
        QVERIFY(old.model);
        QVERIFY(!old.model->commonWeights);
        QVERIFY(!old.model->pooling);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("models");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown model") << QStringList{"calc", "sage"}
                                       << "model \"sage\" gave no scored answer in these experiments (answering: calc, poet)";
        QTest::newRow("one model") << QStringList{"calc"}
                                   << "a router chooses between models: name at least two (answering: calc, poet)";
    }
    void refusals()
    {
        QFETCH(QStringList, models);
        QFETCH(QString, error);
        const auto [train, heldout] = byDomain();
        RouterTraining::Options options;
        for (const auto& m : models)
            options.models.push_back(m.toStdString());
        std::string why;
        QVERIFY(!RouterTraining::fromSamples(train, &heldout, options, shippedGate(), why));
        QCOMPARE(QString::fromStdString(why), error);
    }

    void answeringModelsByName()
    {
        const auto [train, heldout] = byName();
        QCOMPARE(RouterTraining::answeringModels(train), (std::vector<std::string>{"big", "calc"}));
        QCOMPARE(RouterTraining::answeringModels(CalibrationSamples{}), std::vector<std::string>{});
    }

    void noSharedTaskAndFewAnswers()
    {
        CalibrationSamples samples;
        addTask(samples, "a", "What is 2 + 2?");
        addTask(samples, "b", "Name a prime above 10.");
        addAnswer(samples, "a", "calc", 1, true);
        addAnswer(samples, "b", "poet", 1, false);
        std::string why;
        QVERIFY(!RouterTraining::fromSamples(samples, nullptr, {}, shippedGate(), why));
        QCOMPARE(QString::fromStdString(why),
                 QString("no task was answered by every one of calc, poet: a router learns from trials in which the "
                         "candidate models answered the same tasks"));
        addAnswer(samples, "a", "poet", 1, false);
        const auto result = RouterTraining::fromSamples(samples, nullptr, {}, shippedGate(), why);
        QVERIFY2(result, why.c_str());
        QCOMPARE(result->warnings.size(), size_t(2));
        QCOMPARE(QString::fromStdString(result->warnings[0]),
                 QString("model calc had only 1 training answers (fewer than 100): its predictions rest on little"));
    }

    void routerFileRoundTripsAndPredictsAlike_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("logistic") << int(RouterModel::Method::Logistic);
        QTest::newRow("knn") << int(RouterModel::Method::Knn);
    }
    void routerFileRoundTripsAndPredictsAlike()
    {
        QFETCH(int, method);
        const auto [train, heldout] = byName();
        RouterTraining::Options options;
        options.method = RouterModel::Method(method);
        std::string error;
        const auto result = RouterTraining::fromSamples(train, &heldout, options, shippedGate(), error);
        QVERIFY2(result, error.c_str());
        const auto text = RouterFile::toJsonText(result->model);
        const auto read = RouterFile::fromJsonText(text);
        QVERIFY(read.model);
        QCOMPARE(RouterFile::toJsonText(*read.model), text);
        QCOMPARE(read.model->tasks.size(), size_t(80));
        QCOMPARE(read.model->heldoutTasks.size(), size_t(40));
        const auto original = RouterPredictor::make(result->model, shippedGate(), error);
        const auto reread = RouterPredictor::make(*read.model, shippedGate(), error);
        for (const char* prompt : {"Zorblat asks: what is 31 + 9?", "Quindle asks: what is 31 + 9?", "Hello"}) {
            const auto a = original->predict(prompt);
            const auto b = reread->predict(prompt);
            for (size_t m = 0; m < a.size(); ++m)
                QVERIFY(std::abs(a[m] - b[m]) < 1e-4); // the file keeps 6 decimals
        }
        const auto zorblat = original->predict("Zorblat asks: what is 31 + 9?");
        const auto quindle = original->predict("Quindle asks: what is 31 + 9?");
        QVERIFY(zorblat[1] > quindle[1]); // calc, the second model, is right when Zorblat asks
        QVERIFY(zorblat[0] < quindle[0]);
    }

    void routerFileProblems_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("problem");
        const QString features = R"("features": {"kind": "prompt", "buckets": 4, "domains": ["x"]})";
        QTest::newRow("not an object") << "[1]"
                                       << "f: expected a router object (what conclave train-router writes), got an array";
        QTest::newRow("newer format") << R"({"format": 2, "method": "logistic"})"
                                      << "f: /format: this Conclave reads router files of format 1 to 1, got 2";
        QTest::newRow("unknown method") << R"({"format": 1, "method": "forest", )" + features + R"(, "models": []})"
                                        << "f: /method: expected \"logistic\" or \"knn\", got \"forest\"";
        QTest::newRow("no models") << R"({"format": 1, "method": "logistic", )" + features + R"(, "models": []})"
                                   << "f: /models: expected at least one model, got none";
        QTest::newRow("weight index out of range")
            << R"({"format": 1, "method": "logistic", )" + features +
                   R"(, "models": [{"name": "a", "answers": 1, "base_rate": 0.5, "c": 1, "bias": 0, "weights": [[9, 1]]}]})"
            << "f: /models/0/weights/0: expected [index, value] with index ascending and below 8, got [9,1]";
        QTest::newRow("duplicate model")
            << R"({"format": 1, "method": "logistic", )" + features +
                   R"(, "models": [{"name": "a", "answers": 1, "base_rate": 0.5, "c": 1, "bias": 0, "weights": []},)" +
                   R"({"name": "a", "answers": 1, "base_rate": 0.5, "c": 1, "bias": 0, "weights": []}]})"
            << "f: /models/1/name: model \"a\" is listed twice";
    }
    void routerFileProblems()
    {
        QFETCH(QString, text);
        QFETCH(QString, problem);
        const auto read = RouterFile::fromJsonText(text.toStdString());
        QVERIFY(!read.model);
        QVERIFY(!read.problems.empty());
        QCOMPARE(QString::fromStdString(formatProblem(read.problems.front(), "f")), problem);
    }

    void aRouterFromAnotherGateIsRefused()
    {
        RouterModel model;
        model.models = {"a", "b"};
        model.buckets = 16;
        model.domains = {"x"};
        std::string error;
        QVERIFY(!RouterPredictor::make(model, shippedGate(), error));
        QCOMPARE(QString::fromStdString(error),
                 QString("the router was trained with a gate of 16 buckets and domains x; this gate has 65536 buckets "
                         "and domains math, code, facts, writing, reasoning: re-train it (conclave train-router)"));
    }
};

QTEST_GUILESS_MAIN(TestRouterTraining)
#include "tst_routertraining.moc"
