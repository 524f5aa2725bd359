#include "conclave/local/Gate.h"
#include "conclave/routing/PromptFeatures.h"

#include <QtTest>

#include <cmath>

using namespace conclave;

namespace {

const Gate& tinyGate()
{
    static const Gate gate = [] {
        auto result = Gate::fromJsonText(R"({"buckets": 16, "domains": ["x", "y"], "weights": {}})");
        if (!result.gate)
            qFatal("the tiny gate does not load");
        return std::move(*result.gate);
    }();
    return gate;
}

const Gate& shippedGate()
{
    static const Gate gate = [] {
        auto result = Gate::load(CONCLAVE_RESOURCES "/models/gate.json");
        if (!result.gate)
            qFatal("the shipped gate does not load");
        return std::move(*result.gate);
    }();
    return gate;
}

uint32_t gram(std::string_view text)
{
    return Gate::bucketOf("\x01" + std::string(text), 16);
}

} // namespace

class TestPromptFeatures : public QObject {
    Q_OBJECT

private slots:
    void characterGramsSlideOverLowerCasedTextWithWhitespaceRunsAsOneSpace()
    {
        const std::vector<std::string> expected{"ab ", "b c", "ab c"};
        QVERIFY(PromptFeatures::characterGrams("  Ab \t\n c ") == expected);
        QVERIFY(PromptFeatures::characterGrams("ab").empty());
    }

    void exactFeaturesOfAFixedPrompt()
    {
        const PromptFeatures features(tinyGate());
        QCOMPARE(features.dimension(), uint32_t(21));
        QCOMPARE(features.domainOffset(), uint32_t(19));
        // "2+2": words 2, +, 2; bigrams "2 +", "+ 2"; one 3-gram "2+2": six occurrences, each 1/sqrt(6).
        std::map<uint32_t, double> expected;
        const double each = 1 / std::sqrt(6.0);
        for (const char* f : {"2", "+", "2", "2 +", "+ 2"})
            expected[Gate::bucketOf(f, 16)] += each;
        expected[gram("2+2")] += each;
        expected[16] = std::log(4.0) / std::log(1000.0); // 3 bytes
        expected[17] = std::log(3.0) / std::log(1000.0); // 2 digits
        expected[18] = std::log(2.0) / std::log(1000.0); // 1 operator
        expected[19] = 0.5;                              // no weights: both domains alike
        expected[20] = 0.5;
        const auto x = features.vector("2+2");
        QCOMPARE(x.size(), expected.size());
        size_t i = 0;
        for (const auto& [index, value] : expected) {
            QCOMPARE(x[i].first, index);
            QVERIFY2(std::abs(x[i].second - value) < 1e-12, qPrintable(QString::number(index)));
            ++i;
        }
        QCOMPARE(features.vector("2+2")[3].second, x[3].second); // the same every time
    }

    void occurrencesSumToTheVector()
    {
        const PromptFeatures features(shippedGate());
        const std::string prompt = "What is 17 * 23? Answer with the number.";
        SparseVector occurrences;
        features.occurrences(prompt, occurrences);
        std::map<uint32_t, double> summed;
        for (const auto& [index, value] : occurrences)
            summed[index] += value;
        std::erase_if(summed, [](const auto& e) { return e.second == 0.0; });
        const auto x = features.vector(prompt);
        QCOMPARE(x.size(), summed.size());
        for (const auto& [index, value] : x)
            QVERIFY(std::abs(summed.at(index) - value) < 1e-12);
    }

    void featureBucketsAreTheGateFeaturesBuckets()
    {
        for (const char* prompt : {"", "Solve 3x + 5 = 20 for x.", "Write a haiku about autumn leaves",
                                   "def f(a, b): return a ÷ b"}) {
            const auto names = Gate::features(prompt);
            std::vector<uint32_t> expected;
            for (const auto& name : names)
                expected.push_back(Gate::bucketOf(name, shippedGate().buckets()));
            QVERIFY2(shippedGate().featureBuckets(prompt) == expected, prompt);
        }
    }

    void domainOnlyHoldsTheGateWeightsAlone()
    {
        const PromptFeatures features(shippedGate());
        const auto x = features.domainOnly("Prove that the square root of 2 is irrational.");
        const auto weights = shippedGate().weigh("Prove that the square root of 2 is irrational.");
        QCOMPARE(x.size(), weights.size());
        for (size_t d = 0; d < weights.size(); ++d) {
            QCOMPARE(x[d].first, features.domainOffset() + uint32_t(d));
            QCOMPARE(x[d].second, weights[d]);
        }
    }
};

QTEST_GUILESS_MAIN(TestPromptFeatures)
#include "tst_promptfeatures.moc"
