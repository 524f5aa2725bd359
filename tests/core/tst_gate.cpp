// <QtTest> first: moc 6.4 cannot parse <compare> when it is the first standard
// header it meets, and Problem.h reaches it through StrongId.h.
#include <QtTest>

#include "conclave/local/Gate.h"
#include "conclave/local/TaskSet.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

using namespace conclave;

namespace {

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

size_t argmax(const std::vector<double>& weights)
{
    return static_cast<size_t>(std::max_element(weights.begin(), weights.end()) - weights.begin());
}

double logistic(double x)
{
    return 1.0 / (1.0 + std::exp(-x));
}

} // namespace

class TestGate : public QObject {
    Q_OBJECT

private slots:
    void shippedGateLoads()
    {
        const auto result = Gate::load(CONCLAVE_RESOURCES "/models/gate.json");
        QVERIFY(result.gate);
        QCOMPARE(result.problems.size(), size_t(0));
        const std::vector<std::string> domains{"math", "code", "facts", "writing", "reasoning"};
        QVERIFY(result.gate->domains() == domains);
        QCOMPARE(result.gate->buckets(), size_t(65536));
    }

    void weightsSumToOne_data()
    {
        QTest::addColumn<QString>("prompt");
        QTest::newRow("empty") << "";
        QTest::newRow("only punctuation") << "?!., \"'";
        QTest::newRow("one word") << "hello";
        QTest::newRow("not ASCII") << "Größe der Straße — 東京";
        QTest::newRow("long") << QString("What is 2 + 2? ").repeated(5000);
        QTest::newRow("code") << "for (int i = 0; i < n; ++i) { total += v[i]; }";
    }

    void weightsSumToOne()
    {
        QFETCH(QString, prompt);
        const auto weights = shippedGate().weigh(prompt.toStdString());
        QCOMPARE(weights.size(), size_t(5));
        // A prompt repeated thousands of times may push a weight to exactly 0 or 1, never beyond.
        for (const double w : weights)
            QVERIFY(w >= 0.0 && w <= 1.0);
        QVERIFY(std::abs(std::accumulate(weights.begin(), weights.end(), 0.0) - 1.0) < 1e-12);
    }

    void bucketOf_data()
    {
        QTest::addColumn<QString>("feature");
        QTest::addColumn<qulonglong>("buckets");
        QTest::addColumn<uint>("bucket");
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c and of "foobar" 0x85944171f73967e8 (the published
        // test vectors); the empty string hashes to the offset basis 0xcbf29ce484222325.
        QTest::newRow("a") << "a" << qulonglong(1048576) << uint(0x1ec8c);
        QTest::newRow("foobar") << "foobar" << qulonglong(1048576) << uint(0x967e8);
        QTest::newRow("empty") << "" << qulonglong(1048576) << uint(0x22325);
        QTest::newRow("bigram") << "what is" << qulonglong(65536) << uint(21597);
        QTest::newRow("a mod 4096") << "a" << qulonglong(4096) << uint(3212);
    }

    void bucketOf()
    {
        QFETCH(QString, feature);
        QFETCH(qulonglong, buckets);
        QFETCH(uint, bucket);
        QCOMPARE(Gate::bucketOf(feature.toStdString(), buckets), bucket);
    }

    void features()
    {
        const auto features = Gate::features("Calculate 87 \u00d7 67, then (x+1)^2; DON'T panic!");
        QStringList joined;
        for (const auto& feature : features)
            joined << QString::fromStdString(feature);
        QCOMPARE(joined.join('|'), QString("calculate|87|*|67|then|(|x|+|1|)|^|2|;|don|t|panic|"
                                           "calculate 87|87 *|* 67|67 then|then (|( x|x +|+ 1|1 )|) ^|^ 2|2 ;|"
                                           "; don|don t|t panic"));
        QVERIFY(Gate::features("").empty());
        QVERIFY(Gate::features("... \u00e9t\u00e9 ...") == std::vector<std::string>({"t"}));
        QVERIFY(Gate::features("a \u00f7 b") == std::vector<std::string>({"a", "/", "b", "a /", "/ b"}));
    }

    void routes_data()
    {
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<bool>("clear"); // the winner must then weigh more than 0.5

        QTest::newRow("math percent") << "What is 17% of 240?"
                                      << "math" << true;
        QTest::newRow("math times") << "Calculate 12 * 7"
                                    << "math" << true;
        QTest::newRow("math equation") << "Solve for y: 3y - 4 = 11"
                                       << "math" << true;
        QTest::newRow("math fractions") << "What is 1/2 + 1/3?"
                                        << "math" << true;
        QTest::newRow("math integral") << "integral of x^2"
                                       << "math" << true;
        QTest::newRow("math units") << "How many minutes are in 3 hours?"
                                    << "math" << true;

        QTest::newRow("code print") << "What does this Python program print? print(len('abc'))"
                                    << "code" << true;
        QTest::newRow("code fix") << "fix this python function"
                                  << "code" << true;
        QTest::newRow("code reverse") << "How do I reverse a list in Python?"
                                      << "code" << true;
        QTest::newRow("code c") << "int main() { return 0; }"
                                << "code" << true;
        QTest::newRow("code javascript") << "Why does this JavaScript throw a TypeError?"
                                         << "code" << false;

        QTest::newRow("facts france") << "What is the capital of France?"
                                      << "facts" << true;
        QTest::newRow("facts peru") << "what is the capital of peru"
                                    << "facts" << true;
        QTest::newRow("facts planet") << "Which planet is closest to the Sun?"
                                      << "facts" << true;
        QTest::newRow("facts symbol") << "What is the chemical symbol for silver?"
                                      << "facts" << true;
        QTest::newRow("facts war") << "In which year did World War I begin?"
                                   << "facts" << true;
        QTest::newRow("facts author") << "Who wrote Romeo and Juliet?"
                                      << "facts" << false;

        QTest::newRow("writing spelling") << "Which word is spelled correctly: definately, definitely, definatly?"
                                          << "writing" << true;
        QTest::newRow("writing poem") << "Write a short poem about the sea"
                                      << "writing" << true;
        QTest::newRow("writing haiku") << "write a haiku about rain"
                                       << "writing" << true;
        QTest::newRow("writing rewrite") << "Rewrite this sentence in the passive voice"
                                         << "writing" << true;
        QTest::newRow("writing synonym") << "What is a synonym for big?"
                                         << "writing" << false;

        QTest::newRow("reasoning syllogism") << "If all cats are mammals and Tom is a cat, is Tom a mammal?"
                                             << "reasoning" << true;
        QTest::newRow("reasoning sequence") << "What is the next number in the sequence 2, 6, 12, 20?"
                                            << "reasoning" << true;
        QTest::newRow("reasoning weekday") << "If today is Monday, what day will it be in 10 days?"
                                           << "reasoning" << true;
        QTest::newRow("reasoning order") << "Alice is taller than Bob. Bob is taller than Carol. Who is the shortest?"
                                         << "reasoning" << true;
        QTest::newRow("reasoning knights")
            << "Knights always tell the truth and knaves always lie. A says B is a knave."
            << "reasoning" << true;
    }

    void routes()
    {
        QFETCH(QString, prompt);
        QFETCH(QString, domain);
        QFETCH(bool, clear);
        const auto& gate = shippedGate();
        const auto weights = gate.weigh(prompt.toStdString());
        const size_t winner = argmax(weights);
        QCOMPARE(QString::fromStdString(gate.domains()[winner]), domain);
        if (clear)
            QVERIFY2(weights[winner] > 0.5, qPrintable(QString::number(weights[winner])));
    }

    void shippedTasksGateToTheirDomain()
    {
        const auto loaded = TaskSet::loadFolder(CONCLAVE_RESOURCES "/tasksets");
        QVERIFY(loaded.tasks);
        const auto& gate = shippedGate();
        std::map<std::string, std::pair<int, int>> byDomain; // hits, total
        int hits = 0;
        for (const auto& task : loaded.tasks->tasks()) {
            const bool hit = gate.domains()[argmax(gate.weigh(task.prompt))] == task.domain;
            hits += hit ? 1 : 0;
            byDomain[task.domain].first += hit ? 1 : 0;
            ++byDomain[task.domain].second;
        }
        for (const auto& [domain, counts] : byDomain)
            qInfo("%s: %d/%d", domain.c_str(), counts.first, counts.second);
        QCOMPARE(loaded.tasks->tasks().size(), size_t(408));
        QVERIFY2(hits >= 408, qPrintable(QString::number(hits)));
    }

    void collidingFeaturesAddUp()
    {
        // "a" and "q" share bucket 12 of 16; "a a" lands in bucket 15, which has no weight.
        QCOMPARE(Gate::bucketOf("a", 16), Gate::bucketOf("q", 16));
        QVERIFY(Gate::bucketOf("a a", 16) != Gate::bucketOf("a", 16));
        const auto result = Gate::fromJsonText(
            R"({"buckets": 16, "domains": ["x", "y"], "bias": {"y": 0.5}, "weights": {"x": {"a": 1, "q": 2}}})");
        QVERIFY(result.gate);
        const auto& gate = *result.gate;
        QCOMPARE(gate.weigh("q")[0], logistic(3.0 - 0.5));
        // a, a and "a a": (3 + 3 + 0) / sqrt(3).
        QCOMPARE(gate.weigh("A a")[0], logistic(6.0 / std::sqrt(3.0) - 0.5));
        QCOMPARE(gate.weigh("")[0], logistic(-0.5));
        QCOMPARE(gate.weigh("zzz")[1], logistic(0.5));
    }

    void badGates_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString ok = R"("buckets": 16, "domains": ["x", "y"])";
        QTest::newRow("syntax") << "{\"buckets\": 16,"
                                << "f:1:16: syntax error while parsing object key - "
                                   "unexpected end of input; expected string literal";
        QTest::newRow("not an object") << "[1]"
                                       << "f: expected a gate object with buckets, domains, bias and weights, got "
                                          "an array";
        QTest::newRow("no buckets") << R"({"domains": ["x"], "weights": {}})"
                                    << "f: /buckets: missing; expected an integer from 16 to 1048576";
        QTest::newRow("few buckets") << R"({"buckets": 8, "domains": ["x"], "weights": {}})"
                                     << "f: /buckets: expected an integer from 16 to 1048576, got 8";
        QTest::newRow("many buckets") << R"({"buckets": 2000000, "domains": ["x"], "weights": {}})"
                                      << "f: /buckets: expected an integer from 16 to 1048576, got 2000000";
        QTest::newRow("fractional buckets") << R"({"buckets": 16.5, "domains": ["x"], "weights": {}})"
                                            << "f: /buckets: expected an integer from 16 to 1048576, got 16.5";
        QTest::newRow("no domains") << R"({"buckets": 16, "weights": {}})"
                                    << "f: /domains: missing; expected an array of domain names";
        QTest::newRow("empty domains") << R"({"buckets": 16, "domains": [], "weights": {}})"
                                       << "f: /domains: expected an array of 1 to 32 domain names, got an array";
        QTest::newRow("domain not a string") << R"({"buckets": 16, "domains": ["x", 3], "weights": {}})"
                                             << "f: /domains/1: expected a domain name, got 3";
        QTest::newRow("duplicate domain") << R"({"buckets": 16, "domains": ["x", "x"], "weights": {}})"
                                          << "f: /domains/1: duplicate domain \"x\"";
        QTest::newRow("no weights") << "{" + ok + "}"
                                    << "f: /weights: missing; expected an object of feature weights by domain";
        QTest::newRow("weights for unknown domain") << "{" + ok + R"(, "weights": {"z": {"a": 1}}})"
                                                    << "f: /weights/z: unknown domain; the domains are x, y";
        QTest::newRow("domain weights not object") << "{" + ok + R"(, "weights": {"x": [1]}})"
                                                   << "f: /weights/x: expected an object of feature weights, got "
                                                      "an array";
        QTest::newRow("weight not a number") << "{" + ok + R"(, "weights": {"x": {"a b": "high"}}})"
                                             << "f: /weights/x/a b: expected a number from -1000000 to 1000000, "
                                                "got \"high\"";
        QTest::newRow("weight too large") << "{" + ok + R"(, "weights": {"x": {"a": 1e300}}})"
                                          << "f: /weights/x/a: expected a number from -1000000 to 1000000, "
                                             "got 1e+300";
        QTest::newRow("bias unknown domain") << "{" + ok + R"(, "bias": {"z": 1}, "weights": {}})"
                                             << "f: /bias/z: unknown domain; the domains are x, y";
        QTest::newRow("bias not a number") << "{" + ok + R"(, "bias": {"x": null}, "weights": {}})"
                                           << "f: /bias/x: expected a number from -1000000 to 1000000, got null";
        QTest::newRow("bias not an object") << "{" + ok + R"(, "bias": 1, "weights": {}})"
                                            << "f: /bias: expected an object of numbers by domain, got 1";
    }

    void badGates()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto result = Gate::fromJsonText(text.toStdString());
        QVERIFY(!result.gate);
        QVERIFY(!result.problems.empty());
        QCOMPARE(QString::fromStdString(formatProblem(result.problems.front(), "f")), expected);
    }

    void unknownKeyIsAWarning()
    {
        const auto result =
            Gate::fromJsonText(R"({"buckets": 16, "domains": ["x"], "weights": {}, "trained": "yesterday"})");
        QVERIFY(result.gate);
        QCOMPARE(result.problems.size(), size_t(1));
        QCOMPARE(QString::fromStdString(formatProblem(result.problems.front(), "f")),
                 QString("f: /trained: warning: unknown key; ignored"));
    }

    void missingFile()
    {
        const auto result = Gate::load(CONCLAVE_TEST_DATA "/no-such-gate.json");
        QVERIFY(!result.gate);
        QCOMPARE(result.problems.size(), size_t(1));
        QCOMPARE(QString::fromStdString(result.problems.front().message), QString("no such file"));
    }
};

QTEST_GUILESS_MAIN(TestGate)
#include "tst_gate.moc"
