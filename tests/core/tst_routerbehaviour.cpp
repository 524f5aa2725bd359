// The router behaviours (engine/RouterBehaviour): each standard strategy's
// decision from a router's input alone, and a behaviour supplied from outside
// the engine, carried by the run plan: what it is shown, the edges it fires
// and the note it leaves on the router's span.
#include "conclave/engine/BroadcastRouter.h"
#include "conclave/engine/KeywordRouter.h"
#include "conclave/engine/LlmRouter.h"
#include "conclave/engine/MoeGateRouter.h"
#include "conclave/engine/Run.h"
#include "conclave/engine/RunPlan.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/io/TeamJson.h"

#include <QtTest>

#include <chrono>

using namespace conclave;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

RouterInput threeRoutes(std::vector<double> scores = {})
{
    RouterInput in;
    in.text = "What is 2 + 2? A math question.";
    in.routes = {{4, NodeId("m"), "math", "local/math-13b"},
                 {5, NodeId("f"), "facts", "local/facts-7b"},
                 {6, NodeId("w"), "math", std::nullopt}};
    if (!scores.empty())
        in.gateScores = [scores] { return scores; };
    return in;
}

// Fires the routes whose target's id the input names, and says so in a note.
class NamedTargetRouter : public RouterBehaviour {
public:
    explicit NamedTargetRouter(std::vector<RouteCandidate>* seen) : m_seen(seen) {}

    RouteDecision decide(const RouterInput& input) const override
    {
        *m_seen = input.routes;
        RouteDecision d;
        for (const auto& r : input.routes) {
            if (input.text.find(r.target.str()) != std::string::npos)
                d.edges.push_back(r.edge);
        }
        d.note = "route y: p 0.81 \u2265 0.70 (cheapest above)";
        return d;
    }

private:
    std::vector<RouteCandidate>* m_seen;
};

} // namespace

class TestRouterBehaviour : public QObject {
    Q_OBJECT

private slots:
    void broadcastFiresEveryRoute()
    {
        const auto d = BroadcastRouter().decide(threeRoutes());
        QCOMPARE(d.edges, (std::vector<size_t>{4, 5, 6}));
        QCOMPARE(d.answer, std::optional<std::string>());
        QCOMPARE(d.note, std::string());
    }

    void keywordFiresTheMatchingLabelsRoutes()
    {
        const KeywordRouter router(RouteTable{{"math", {"/\\d \\+ \\d/"}}, {"facts", {"capital"}}}, "facts");
        QCOMPARE(router.decide(threeRoutes()).edges, (std::vector<size_t>{4, 6}));
        auto plain = threeRoutes();
        plain.text = "hello";
        QCOMPARE(router.decide(plain).edges, (std::vector<size_t>{5}));
    }

    void moeGateFiresTheTopKByGateScore()
    {
        QCOMPARE(MoeGateRouter(2, 0.0).decide(threeRoutes({0.2, 0.5, 0.3})).edges, (std::vector<size_t>{5, 6}));
        // 0.3 of a total of 1.0 is below min_weight 0.35: only the best stays.
        QCOMPARE(MoeGateRouter(2, 0.35).decide(threeRoutes({0.2, 0.5, 0.3})).edges, (std::vector<size_t>{5}));
        // Without a gate every target scores the same: the first k.
        QCOMPARE(MoeGateRouter(2, 0.0).decide(threeRoutes()).edges, (std::vector<size_t>{4, 5}));
    }

    void llmAsksForALabelAndFiresItsRoutes()
    {
        const LlmRouter router(std::string("facts"));
        QVERIFY(router.asksModel());
        const auto q = router.question(threeRoutes());
        QCOMPARE(q.inputs.routes, (std::vector<std::string>{"math", "facts"}));
        QCOMPARE(q.inputs.task, std::string("What is 2 + 2? A math question."));
        QVERIFY(q.prompt.starts_with("Routes: math, facts\n"));
        const auto math = router.answer(threeRoutes(), "math");
        QCOMPARE(math.edges, (std::vector<size_t>{4, 6}));
        QCOMPARE(math.answer, std::optional<std::string>("math"));
        const auto unknown = router.answer(threeRoutes(), "poetry");
        QCOMPARE(unknown.edges, (std::vector<size_t>{5}));
        QCOMPARE(unknown.answer, std::optional<std::string>("facts"));
    }

    void aBehaviourFromOutsideTheEngineRoutesARun()
    {
        // in -> r -> x, y (concat aggregators), z (an expert never chosen); y -> out.
        const json doc{
            {"conclave", 1},
            {"name", "t"},
            {"nodes", json::array({json{{"id", "in"}, {"kind", "input"}},
                                   json{{"id", "r"}, {"kind", "router"}, {"strategy", "keyword"}},
                                   json{{"id", "x"}, {"kind", "aggregator"}, {"strategy", "concat"}},
                                   json{{"id", "y"}, {"kind", "aggregator"}, {"strategy", "concat"}},
                                   json{{"id", "z"}, {"kind", "expert"}, {"model", "local/tiny-1b"}},
                                   json{{"id", "out"}, {"kind", "output"}}})},
            {"edges",
             json::array({json{{"from", "in"}, {"to", "r"}}, json{{"from", "r"}, {"to", "x"}, {"when", "lx"}},
                          json{{"from", "r"}, {"to", "y"}, {"when", "ly"}},
                          json{{"from", "r"}, {"to", "z"}, {"when", "lz"}}, json{{"from", "y"}, {"to", "out"}}})}};
        const auto loaded = teamFromJson(doc);
        QVERIFY(loaded.team);
        std::vector<RouteCandidate> seen;
        std::string error;
        const auto plan = RunPlan::make(*loaded.team, error, [&](const Node& node, std::string&) {
            return node.id == NodeId("r") ? std::make_shared<NamedTargetRouter>(&seen) : nullptr;
        });
        QVERIFY2(plan, error.c_str());

        ThreadPool pool(2);
        auto clock = std::make_shared<VirtualClock>(pool);
        RunOptions options;
        options.input = "ask y";
        auto run = std::make_shared<Run>(plan, options, std::map<BackendName, std::shared_ptr<ModelBackend>>{},
                                         GateScorer{}, clock);
        run->start();
        QVERIFY(run->waitFor(10s));
        const auto result = run->wait();

        QCOMPARE(seen.size(), size_t(3));
        QCOMPARE(seen[0].edge, size_t(1));
        QCOMPARE(seen[0].target, NodeId("x"));
        QCOMPARE(seen[0].label, std::optional<std::string>("lx"));
        QCOMPARE(seen[0].model, std::optional<std::string>());
        QCOMPARE(seen[2].edge, size_t(3));
        QCOMPARE(seen[2].model, std::optional<std::string>("local/tiny-1b"));

        QCOMPARE(result.results.at(NodeId("r")).answer, std::string("ly"));
        QVERIFY(result.results.at(NodeId("x")).status == Status::Skipped);
        QVERIFY(result.results.at(NodeId("y")).status == Status::Ok);
        QVERIFY(result.results.at(NodeId("z")).status == Status::Skipped);
        std::string note;
        for (const auto& s : result.spans) {
            if (s.node == NodeId("r"))
                note = s.note;
        }
        QCOMPARE(note, std::string("route y: p 0.81 \u2265 0.70 (cheapest above)"));
    }

    void aPlanFailsForARouterWithoutABehaviour()
    {
        const json doc{{"conclave", 1},
                       {"name", "t"},
                       {"nodes", json::array({json{{"id", "in"}, {"kind", "input"}},
                                              json{{"id", "r"}, {"kind", "router"}, {"strategy", "all"}},
                                              json{{"id", "out"}, {"kind", "output"}}})},
                       {"edges", json::array({json{{"from", "in"}, {"to", "r"}}, json{{"from", "r"}, {"to", "out"}}})}};
        const auto loaded = teamFromJson(doc);
        QVERIFY(loaded.team);
        std::string error;
        const auto plan = RunPlan::make(*loaded.team, error, [](const Node&, std::string& why) {
            why = "no behaviour here";
            return std::shared_ptr<const RouterBehaviour>();
        });
        QVERIFY(!plan);
        QCOMPARE(error, std::string("no behaviour here"));
    }
};

QTEST_GUILESS_MAIN(TestRouterBehaviour)
#include "tst_routerbehaviour.moc"
