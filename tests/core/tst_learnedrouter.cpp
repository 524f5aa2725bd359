// The `learned` router strategy end to end: a router file read when the team
// is prepared (session/LearnedRouterLoad), its predictions turned into one
// route by the policy (routing/LearnedRouter, RoutePolicy), the decision noted
// on the router's span; and every refusal, by the validator or at preparation.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/LearnedRouterTeam.h"

#include "conclave/io/FileIo.h"
#include "conclave/routing/RouterFile.h"

#include <QTemporaryDir>

using namespace enginetest;

namespace {

// p(cheap) = σ(1 − 6 · ln(1 + digits)/ln 1000): 0.73 without digits, 0.33 for "Calculate 323 + 460." (6 digits);
// p(dear) = σ(2.2) = 0.90 whatever the prompt.
std::string routerFile(const QTemporaryDir& dir, const std::vector<std::string>& models = {"wrong-100", "right-100"})
{
    RouterModel model;
    model.buckets = 65536;
    model.domains = {"math", "code", "facts", "writing", "reasoning"};
    for (size_t m = 0; m < models.size(); ++m) {
        model.models.push_back(models[m]);
        model.answers.push_back(100);
        model.baseRates.push_back(0.5);
        model.linear.push_back(m == 0 ? RouterModel::Linear{1, 1.0, {{65537, -6.0}}} : RouterModel::Linear{1, 2.2, {}});
    }
    const auto path = dir.filePath("router.json").toStdString();
    if (writeFileAtomically(path, RouterFile::toJsonText(model)))
        qFatal("cannot write the router file");
    return path;
}

const Span* nodeSpan(const RunResult& r, const char* node)
{
    for (const auto& s : r.spans) {
        if (s.kind == SpanKind::Node && s.node.str() == node)
            return &s;
    }
    return nullptr;
}

} // namespace

class TestLearnedRouter : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;

    QString prepareError(const TeamBuilder& builder)
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team)
            return "does not load: " + q(problems);
        const auto prepared = m_h.engine().prepare(*team, m_dir.path().toStdString());
        return prepared.team ? QString("(prepared)") : q(prepared.error);
    }

private slots:
    void initTestCase() { QVERIFY(m_h.init()); }

    void routesByPolicy_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("ran");
        QTest::addColumn<QString>("note");
        QTest::newRow("strong_weak, no digits: weak") << "strong_weak"
                                                      << "Write a haiku about the sea."
                                                      << "cheap"
                                                      << "route wrong-100: p 0.90 − 0.73 = 0.17 < 0.30 (strong-weak)";
        QTest::newRow("strong_weak, digits: strong") << "strong_weak" << kMath << "dear"
                                                     << "route right-100: p 0.90 − 0.33 = 0.57 ≥ 0.30 (strong-weak)";
        QTest::newRow("cheapest_above, no digits") << "cheapest_above"
                                                   << "Write a haiku about the sea."
                                                   << "cheap"
                                                   << "route wrong-100: p 0.73 ≥ 0.70 (cheapest above)";
        QTest::newRow("cheapest_above, digits") << "cheapest_above" << kMath << "dear"
                                                << "route right-100: p 0.90 ≥ 0.70 (cheapest above)";
        QTest::newRow("max_utility") << "max_utility"
                                     << "Write a haiku about the sea."
                                     << "cheap"
                                     << "route wrong-100: utility 0.72 = p 0.73 − 0.50 × cost 0.02 (max utility)";
    }
    void routesByPolicy()
    {
        QFETCH(QString, policy);
        QFETCH(QString, input);
        QFETCH(QString, ran);
        QFETCH(QString, note);
        json router{{"router_file", routerFile(m_dir)}, {"policy", policy.toStdString()}};
        if (policy == "strong_weak") {
            router["threshold"] = 0.3;
            router["strong"] = "dear";
            router["weak"] = "cheap";
        } else if (policy == "cheapest_above") {
            router["threshold"] = 0.7;
        } else {
            router["cost_weight"] = 0.5;
        }
        const auto r = m_h.run(learnedRouterTeam(router), input.toStdString(),
                               Engine::StartOptions{42, {}, ClockRequest::Virtual, {}, {}});
        QVERIFY(r.status == RunStatus::Ok);
        const auto* span = nodeSpan(r, "route");
        QVERIFY(span);
        QCOMPARE(q(span->note), note);
        const QString other = ran == "cheap" ? "dear" : "cheap";
        QVERIFY(r.results.at(NodeId(ran.toStdString())).status == Status::Ok);
        QVERIFY(r.results.at(NodeId(other.toStdString())).status == Status::Skipped);
    }

    void validatorRefusals_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("drop");
        QTest::addColumn<QString>("expected");
        QTest::newRow("strong_weak without threshold")
            << "strong_weak"
            << "threshold"
            << "the team is invalid: /nodes/1/threshold: a learned router with policy strong_weak needs threshold";
        QTest::newRow("strong_weak without strong")
            << "strong_weak"
            << "strong"
            << "the team is invalid: /nodes/1/strong: a learned router with policy strong_weak needs strong";
        QTest::newRow("max_utility without cost_weight")
            << "max_utility"
            << "cost_weight"
            << "the team is invalid: /nodes/1/cost_weight: a learned router with policy max_utility needs cost_weight";
        QTest::newRow("no router file") << "cheapest_above"
                                        << "router_file"
                                        << "the team is invalid: /nodes/1/router_file: a learned router needs "
                                           "router_file (what conclave train-router writes)";
    }
    void validatorRefusals()
    {
        QFETCH(QString, policy);
        QFETCH(QString, drop);
        QFETCH(QString, expected);
        json router{{"router_file", "router.json"},
                    {"policy", policy.toStdString()},
                    {"threshold", 0.3},
                    {"cost_weight", 0.5},
                    {"strong", "dear"},
                    {"weak", "cheap"}};
        if (policy != "strong_weak") {
            router.erase("strong");
            router.erase("weak");
        }
        router.erase(drop.toStdString());
        routerFile(m_dir);
        QCOMPARE(prepareError(learnedRouterTeam(router)), expected);
    }

    void aRouteMustLeadToAnExpert()
    {
        routerFile(m_dir);
        auto b =
            learnedRouterTeam(json{{"router_file", "router.json"}, {"policy", "cheapest_above"}, {"threshold", 0.7}});
        b.node("panel", "aggregator", json{{"strategy", "first"}}).edge("route", "panel").edge("panel", "join");
        QCOMPARE(prepareError(b), QString("the team is invalid: /edges/6: the route to \"panel\" leads to an "
                                          "aggregator; a learned route's model is that of the expert it leads to"));
    }

    void strongWeakHasExactlyTwoRoutes()
    {
        routerFile(m_dir);
        auto b = learnedRouterTeam(json{{"router_file", "router.json"},
                                        {"policy", "strong_weak"},
                                        {"threshold", 0.3},
                                        {"strong", "dear"},
                                        {"weak", "cheap"}});
        b.expert("third", "right-100").edge("route", "third").edge("third", "join");
        QCOMPARE(prepareError(b), QString("the team is invalid: /nodes/1: a learned router with policy strong_weak "
                                          "has exactly two routes, got 3"));
    }

    void preparationRefusals()
    {
        // A model the file was not trained on.
        routerFile(m_dir, {"wrong-100", "wrong-300"});
        const json router{{"router_file", "router.json"}, {"policy", "cheapest_above"}, {"threshold", 0.7}};
        QCOMPARE(prepareError(learnedRouterTeam(router)),
                 QString("node \"route\": router_file \"router.json\": the route to \"dear\" answers with right-100, "
                         "which the router was not trained on (it knows wrong-100, wrong-300): re-train it with "
                         "conclave train-router --models"));
        // No such file.
        json missing = router;
        missing["router_file"] = "nowhere.json";
        QVERIFY(prepareError(learnedRouterTeam(missing)).startsWith("node \"route\": router_file \"nowhere.json\": "));
        // Another gate.
        RouterModel other;
        other.models = {"wrong-100", "right-100"};
        other.answers = {1, 1};
        other.baseRates = {0.5, 0.5};
        other.linear = {{}, {}};
        other.buckets = 16;
        other.domains = {"x"};
        QVERIFY(!writeFileAtomically(m_dir.filePath("small.json").toStdString(), RouterFile::toJsonText(other)));
        json small = router;
        small["router_file"] = "small.json";
        QCOMPARE(prepareError(learnedRouterTeam(small)),
                 QString("node \"route\": router_file \"small.json\": the router was trained with a gate of 16 "
                         "buckets and domains x; this gate has 65536 buckets and domains math, code, facts, writing, "
                         "reasoning: re-train it (conclave train-router)"));
    }
};

QTEST_GUILESS_MAIN(TestLearnedRouter)
#include "tst_learnedrouter.moc"
