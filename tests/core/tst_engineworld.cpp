// An engine whose local-moe backends answer from a ground-truth world
// (EngineResources::world): what `bench fidelity` measures designs on, in
// process, on the simulated clock. The world's answers, prices and latencies
// reach the run; the same team without a world is the simulator's. The team
// names the world's models as local ones (empty profiles) to be valid.
#include <QtTest>

#include "conclave/bench/GroundTruthWorld.h"
#include "conclave/io/TeamJson.h"
#include "conclave/session/Engine.h"

#include <filesystem>

using namespace conclave;

namespace {

const std::filesystem::path kResources = CONCLAVE_RESOURCES;

Team twoExperts()
{
    return *teamFromJsonText(R"({"conclave": 1, "name": "two experts",
        "backends": {"local": {"kind": "local-moe", "models": {"alpha": {}, "beta": {}}}},
        "nodes": [{"id": "in", "kind": "input"},
                  {"id": "a", "kind": "expert", "model": "alpha"},
                  {"id": "b", "kind": "expert", "model": "beta"},
                  {"id": "vote", "kind": "aggregator", "strategy": "majority"},
                  {"id": "out", "kind": "output"}],
        "edges": [{"from": "in", "to": "a"}, {"from": "in", "to": "b"}, {"from": "a", "to": "vote"},
                  {"from": "b", "to": "vote"}, {"from": "vote", "to": "out"}]})")
                .team;
}

RunResult runOn(const std::shared_ptr<const CallResponder>& world, const std::string& input)
{
    std::vector<std::string> errors;
    auto resources = EngineResources::load(kResources, errors);
    resources.world = world;
    Engine engine(std::move(resources), 2);
    auto started = engine.start(twoExperts(), input, Engine::StartOptions{7, {}, ClockRequest::Virtual, {}, {}});
    if (!started.run)
        qFatal("%s", started.error.c_str());
    return started.run->wait();
}

} // namespace

class TestEngineWorld : public QObject {
    Q_OBJECT

private slots:
    void callsAreTheWorlds();
};

void TestEngineWorld::callsAreTheWorlds()
{
    const auto loaded = GroundTruthWorld::load(kResources / "bench" / "worlds" / "lab-a.json", kResources);
    QVERIFY(loaded.world);
    const std::string input = "What is the capital city of France?";
    const auto world = runOn(loaded.world, input);
    QVERIFY(world.status == RunStatus::Ok);
    const auto again = runOn(loaded.world, input);
    const auto simulated = runOn(nullptr, input);
    for (const char* node : {"a", "b"}) {
        const auto& result = world.results.at(NodeId(node));
        QVERIFY(result.status == Status::Ok);
        // Priced as the world prices its models, not as the simulator's defaults (free).
        const std::string model = node == std::string("a") ? "alpha" : "beta";
        QCOMPARE(result.costUsd, loaded.world->costOf(model, result.tokensIn, result.tokensOut));
        QVERIFY(result.costUsd > 0);
        QCOMPARE(simulated.results.at(NodeId(node)).costUsd, 0.0);
        // The world answers a prompt the same way every time.
        QCOMPARE(again.results.at(NodeId(node)).text, result.text);
        QVERIFY(simulated.results.at(NodeId(node)).text != result.text);
    }
    QCOMPARE(world.wallUs, again.wallUs);
}

QTEST_GUILESS_MAIN(TestEngineWorld)
#include "tst_engineworld.moc"
