#include "conclave/resources/LocalModelCatalog.h"

#include <QtTest>

using namespace conclave;

class TestLocalModelCatalog : public QObject {
    Q_OBJECT

private slots:
    void shippedCatalogHasTheDesignModels()
    {
        const auto result = LocalModelCatalog::load(CONCLAVE_RESOURCES "/models/local-models.json");
        QVERIFY(result.catalog);
        QCOMPARE(result.problems.size(), size_t(0));
        const std::set<std::string> expected{"local/code-13b",     "local/facts-7b",  "local/frontier-70b",
                                             "local/generalist-7b", "local/math-13b", "local/reasoner-34b",
                                             "local/tiny-1b",       "local/writer-7b"};
        QVERIFY(result.catalog->names() == expected);
        for (const auto& [name, profile] : result.catalog->models()) {
            QVERIFY2(profile.skills && profile.skills->size() == 5, name.c_str());
            QVERIFY2(profile.ttftMs && profile.tokensPerS && profile.outputTokens, name.c_str());
            QVERIFY2(profile.pricePerMtok && profile.contextTokens && profile.failureRate, name.c_str());
            QVERIFY2(profile.extra.empty(), name.c_str());
        }
        // The frontier model is the strongest and the dearest; the tiny one the weakest and cheapest.
        const auto& models = result.catalog->models();
        const auto& tiny = models.at("local/tiny-1b");
        const auto& frontier = models.at("local/frontier-70b");
        QVERIFY(tiny.pricePerMtok->output < frontier.pricePerMtok->output);
        QVERIFY(tiny.ttftMs->median < frontier.ttftMs->median);
        QVERIFY(tiny.skills->at("reasoning") < frontier.skills->at("reasoning"));
        QVERIFY(models.at("local/math-13b").skills->at("math") > models.at("local/generalist-7b").skills->at("math"));
    }

    void badCatalogs_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no models") << "{}" << "f: /models: expected an object of model profiles";
        QTest::newRow("profile not object") << R"({"models": {"m": 3}})"
                                            << "f: /models/m: expected a model profile object, got 3";
        QTest::newRow("bad distribution") << R"({"models": {"m": {"ttft_ms": {"median": 1}}}})"
                                          << "f: /models/m/ttft_ms/p95: missing; expected a non-negative number";
        QTest::newRow("bad skill") << R"({"models": {"m": {"skills": {"math": "high"}}}})"
                                   << "f: /models/m/skills/math: expected a number from 0 to 1, got \"high\"";
        QTest::newRow("syntax") << "{\"models\": " << "f:1:12: syntax error while parsing value - unexpected end "
                                                      "of input; expected '[', '{', or a literal";
    }

    void badCatalogs()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto result = LocalModelCatalog::fromJsonText(text.toStdString());
        QVERIFY(!result.catalog);
        QVERIFY(!result.problems.empty());
        QCOMPARE(QString::fromStdString(formatProblem(result.problems.front(), "f")), expected);
    }
};

QTEST_GUILESS_MAIN(TestLocalModelCatalog)
#include "tst_localmodelcatalog.moc"
