// provenance: the one rule for where a design's figures come from, from its
// calls: measured, replayed (N % of calls) or simulated; and a team's calls.
#include <QtTest>

#include "conclave/experiment/Provenance.h"
#include "conclave/io/TeamJson.h"

#include <nlohmann/json.hpp>

using namespace conclave;

namespace {

Team teamWith(const char* backendKind, const char* aggregator)
{
    nlohmann::json backend = {{"kind", backendKind}};
    if (std::string(backendKind) == "openai") {
        backend["base_url"] = "http://127.0.0.1:9/v1";
        backend["api_key_env"] = "CONCLAVE_TEST_NO_KEY";
    }
    const nlohmann::json doc = {{"conclave", 1},
                                {"name", "t"},
                                {"backends", {{"b", backend}}},
                                {"nodes",
                                 {{{"id", "in"}, {"kind", "input"}},
                                  {{"id", "e1"}, {"kind", "expert"}, {"model", "m"}},
                                  {{"id", "e2"}, {"kind", "expert"}, {"model", "m"}},
                                  {{"id", "agg"}, {"kind", "aggregator"}, {"strategy", aggregator}, {"model", "m"}},
                                  {{"id", "out"}, {"kind", "output"}}}},
                                {"edges",
                                 {{{"from", "in"}, {"to", "e1"}},
                                  {{"from", "in"}, {"to", "e2"}},
                                  {{"from", "e1"}, {"to", "agg"}},
                                  {{"from", "e2"}, {"to", "agg"}},
                                  {{"from", "agg"}, {"to", "out"}}}}};
    auto loaded = teamFromJson(doc);
    if (!loaded.team)
        qFatal("the test team does not load");
    return *loaded.team;
}

} // namespace

class TestProvenance : public QObject {
    Q_OBJECT

private slots:
    void rule_data()
    {
        QTest::addColumn<qlonglong>("measured");
        QTest::addColumn<qlonglong>("replayed");
        QTest::addColumn<qlonglong>("simulated");
        QTest::addColumn<QString>("text");
        QTest::newRow("all live") << 12LL << 0LL << 0LL << "measured";
        QTest::newRow("no calls") << 0LL << 0LL << 0LL << "measured";
        QTest::newRow("all simulated") << 0LL << 0LL << 7LL << "simulated";
        // One simulated call makes the figures the simulator's, whatever else was live or replayed.
        QTest::newRow("one simulated") << 10LL << 5LL << 1LL << "simulated";
        QTest::newRow("all replayed") << 0LL << 9LL << 0LL << "replayed (100 % of calls)";
        QTest::newRow("some replayed") << 6LL << 4LL << 0LL << "replayed (40 % of calls)";
        // 1 of 3: 33.3 % rounds to 33; 2 of 3: 66.7 % to 67.
        QTest::newRow("a third") << 2LL << 1LL << 0LL << "replayed (33 % of calls)";
        QTest::newRow("two thirds") << 1LL << 2LL << 0LL << "replayed (67 % of calls)";
    }

    void rule()
    {
        QFETCH(qlonglong, measured);
        QFETCH(qlonglong, replayed);
        QFETCH(qlonglong, simulated);
        QFETCH(QString, text);
        const auto p = provenance(CallSources{measured, replayed, simulated});
        QCOMPARE(QString::fromStdString(p.text()), text);
        QCOMPARE(p.measured(), text == "measured");
    }

    void sourcesAdd()
    {
        CallSources a{1, 2, 0};
        a += CallSources{3, 0, 0};
        QCOMPARE(a.measured, int64_t(4));
        QCOMPARE(a.replayed, int64_t(2));
        QCOMPARE(provenance(a).text(), std::string("replayed (33 % of calls)"));
    }

    // Only nodes that call a model count: two experts always, the aggregator only when it synthesizes.
    void teamsCountTheirCalls_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("aggregator");
        QTest::addColumn<qlonglong>("measured");
        QTest::addColumn<qlonglong>("simulated");
        QTest::addColumn<QString>("text");
        QTest::newRow("local, vote") << "local-moe"
                                     << "majority" << 0LL << 2LL << "simulated";
        QTest::newRow("local, synthesize") << "local-moe"
                                           << "synthesize" << 0LL << 3LL << "simulated";
        QTest::newRow("openai, vote") << "openai"
                                      << "majority" << 2LL << 0LL << "measured";
        QTest::newRow("openai, synthesize") << "openai"
                                            << "synthesize" << 3LL << 0LL << "measured";
    }

    void teamsCountTheirCalls()
    {
        QFETCH(QString, backend);
        QFETCH(QString, aggregator);
        QFETCH(qlonglong, measured);
        QFETCH(qlonglong, simulated);
        QFETCH(QString, text);
        const auto team = teamWith(backend.toUtf8().constData(), aggregator.toUtf8().constData());
        const auto sources = callSources(team);
        QCOMPARE(sources.measured, int64_t(measured));
        QCOMPARE(sources.replayed, int64_t(0));
        QCOMPARE(sources.simulated, int64_t(simulated));
        QCOMPARE(QString::fromStdString(provenance(makeDesign("d", "", team)).text()), text);
    }
};

QTEST_GUILESS_MAIN(TestProvenance)
#include "tst_provenance.moc"
