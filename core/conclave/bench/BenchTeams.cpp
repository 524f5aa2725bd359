#include "conclave/bench/BenchTeams.h"

namespace conclave {

ModelProfile BenchTeams::fixedProfile(double latencyMs, double skill)
{
    ModelProfile p;
    p.skills = std::map<std::string, double>{
        {"math", skill}, {"code", skill}, {"facts", skill}, {"writing", skill}, {"reasoning", skill}};
    p.ttftMs = Distribution{latencyMs, latencyMs};
    p.tokensPerS = Distribution{1e9, 1e9};
    p.outputTokens = Distribution{1, 1};
    p.pricePerMtok = Price{0.1, 0.2};
    p.contextTokens = 1'000'000;
    p.failureRate = 0;
    return p;
}

namespace {

Team skeleton(std::string name)
{
    Team team;
    team.name = std::move(name);
    Backend local;
    local.kind = BackendKind::LocalMoe;
    local.seed = 1;
    local.timeScale = 1.0;
    local.models = std::map<std::string, ModelProfile>{};
    team.backends.emplace(BackendName("local"), std::move(local));
    team.defaults = Defaults{};
    team.defaults->backend = BackendName("local");
    team.defaults->retries = 0;
    Node in;
    in.id = NodeId("in");
    in.kind = NodeKind::Input;
    team.nodes.push_back(std::move(in));
    return team;
}

Node expert(const std::string& id, const std::string& model)
{
    Node n;
    n.id = NodeId(id);
    n.kind = NodeKind::Expert;
    n.config.call.model = model;
    n.config.call.prompt = "{{input}}";
    return n;
}

void edge(Team& team, const std::string& from, const std::string& to)
{
    Edge e;
    e.from = NodeId(from);
    e.to = NodeId(to);
    // Every bench team's routers are named "fan" (a lookup per edge would make building them quadratic).
    if (from == "fan")
        e.when = to;
    team.edges.push_back(std::move(e));
}

Node simple(const std::string& id, NodeKind kind)
{
    Node n;
    n.id = NodeId(id);
    n.kind = kind;
    return n;
}

} // namespace

Team BenchTeams::fanOut(size_t n, double latencyMs)
{
    Team team = skeleton("Fan-out " + std::to_string(n));
    (*team.backends.begin()->second.models)["bench/fixed"] = fixedProfile(latencyMs, 0.5);
    auto router = simple("fan", NodeKind::Router);
    router.config.routerStrategy = RouterStrategy::All;
    team.nodes.push_back(router);
    edge(team, "in", "fan");
    auto join = simple("join", NodeKind::Aggregator);
    join.config.aggregatorStrategy = AggregatorStrategy::Concat;
    for (size_t i = 0; i < n; ++i) {
        const auto id = "e" + std::to_string(i);
        team.nodes.push_back(expert(id, "bench/fixed"));
        edge(team, "fan", id);
    }
    team.nodes.push_back(join);
    for (size_t i = 0; i < n; ++i)
        edge(team, "e" + std::to_string(i), "join");
    team.nodes.push_back(simple("out", NodeKind::Output));
    edge(team, "join", "out");
    return team;
}

Team BenchTeams::chain(size_t n)
{
    Team team = skeleton("Chain " + std::to_string(n));
    (*team.backends.begin()->second.models)["bench/instant"] = fixedProfile(0, 0.5);
    std::string previous = "in";
    for (size_t i = 0; i < n; ++i) {
        const auto id = "c" + std::to_string(i);
        auto node = expert(id, "bench/instant");
        node.config.call.prompt = "step";
        team.nodes.push_back(std::move(node));
        edge(team, previous, id);
        previous = id;
    }
    team.nodes.push_back(simple("out", NodeKind::Output));
    edge(team, previous, "out");
    return team;
}

Team BenchTeams::earlyTermination(size_t fast, size_t slow, double fastMs, double slowMs)
{
    Team team = skeleton("Early termination");
    auto& models = *team.backends.begin()->second.models;
    models["bench/fast"] = fixedProfile(fastMs, 1.0);
    models["bench/slow"] = fixedProfile(slowMs, 1.0);
    auto router = simple("fan", NodeKind::Router);
    router.config.routerStrategy = RouterStrategy::All;
    team.nodes.push_back(router);
    edge(team, "in", "fan");
    std::vector<std::string> ids;
    for (size_t i = 0; i < fast + slow; ++i) {
        const bool isFast = i < fast;
        const auto id = (isFast ? "fast" : "slow") + std::to_string(isFast ? i : i - fast);
        team.nodes.push_back(expert(id, isFast ? "bench/fast" : "bench/slow"));
        edge(team, "fan", id);
        ids.push_back(id);
    }
    auto vote = simple("vote", NodeKind::Aggregator);
    vote.config.aggregatorStrategy = AggregatorStrategy::Majority;
    vote.config.quorum = static_cast<int64_t>(fast);
    team.nodes.push_back(vote);
    for (const auto& id : ids)
        edge(team, id, "vote");
    team.nodes.push_back(simple("out", NodeKind::Output));
    edge(team, "vote", "out");
    return team;
}

} // namespace conclave
