#include "conclave/search/SpaceProposal.h"

#include "conclave/engine/RunPlan.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/local/LocalResponder.h"
#include "conclave/model/TeamGraph.h"
#include "conclave/routing/RouterFile.h"
#include "conclave/routing/ScorerFile.h"
#include "conclave/session/BackendFactory.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>

namespace conclave {

namespace {

using Served = std::map<std::string, ResolvedProfile>;

struct Choice {
    std::string name;
    double price = 0;
    double skill = 0;
};

Choice choiceOf(const std::string& name, const ResolvedProfile& p)
{
    double sum = 0;
    for (const auto& [domain, skill] : p.skills)
        sum += skill;
    const double mean = p.skills.empty() ? 0 : sum / double(p.skills.size());
    return {name, p.pricePerMtok.input + p.pricePerMtok.output, mean};
}

bool cheaperFirst(const Choice& a, const Choice& b)
{
    return a.price != b.price ? a.price < b.price : a.name < b.name;
}

// `current` and the models of `pool` no other is both cheaper and more skilled than, thinned to kMaxModels.
std::vector<std::string> modelChoices(const std::string& current, const Served& served,
                                      const std::optional<std::set<std::string>>& allowed)
{
    std::vector<Choice> pool;
    for (const auto& [name, profile] : served) {
        if (!allowed || allowed->contains(name) || name == current)
            pool.push_back(choiceOf(name, profile));
    }
    std::vector<Choice> front;
    for (const auto& c : pool) {
        const bool dominated = std::any_of(pool.begin(), pool.end(), [&](const Choice& o) {
            return o.price <= c.price && o.skill >= c.skill && (o.price < c.price || o.skill > c.skill);
        });
        if (!dominated)
            front.push_back(c);
    }
    std::sort(front.begin(), front.end(), cheaperFirst);
    const auto own = std::find_if(pool.begin(), pool.end(), [&](const Choice& c) { return c.name == current; });
    const bool onFront = std::any_of(front.begin(), front.end(), [&](const Choice& c) { return c.name == current; });
    const size_t room = SpaceProposal::kMaxModels - (onFront || own == pool.end() ? 0 : 1);
    // Thin the front's interior: drop the model adding the least skill over the next cheaper one.
    while (front.size() > room && front.size() > 2) {
        size_t drop = 0;
        double least = 0;
        for (size_t i = 1; i + 1 < front.size(); ++i) {
            if (front[i].name == current)
                continue;
            const double gain = front[i].skill - front[i - 1].skill;
            if (drop == 0 || gain < least) {
                drop = i;
                least = gain;
            }
        }
        if (drop == 0)
            break;
        front.erase(front.begin() + std::ptrdiff_t(drop));
    }
    if (!onFront && own != pool.end()) {
        front.push_back(*own);
        std::sort(front.begin(), front.end(), cheaperFirst);
    }
    std::vector<std::string> names;
    for (const auto& c : front)
        names.push_back(c.name);
    return names;
}

std::string joined(const std::vector<std::string>& values)
{
    return std::accumulate(std::next(values.begin()), values.end(), values.front(),
                           [](std::string all, const std::string& v) { return std::move(all) + "," + v; });
}

// The models a router or scorer file was trained on: unset when the node names no file, empty when it cannot be
// read (then its experts are offered no other model: any other would fail the run).
template <class File>
std::optional<std::set<std::string>> fileModels(const std::optional<std::string>& file,
                                                const std::filesystem::path& folder)
{
    if (!file)
        return std::nullopt;
    auto read = File::load(ModelsFile::resolve(*file, folder));
    if (!read.model)
        return std::set<std::string>{};
    return std::set<std::string>(read.model->models.begin(), read.model->models.end());
}

class Proposer {
public:
    Proposer(const Team& team, const std::filesystem::path& folder, const std::map<std::string, ModelProfile>& catalog)
        : m_team(team), m_graph(team)
    {
        std::string error;
        for (const auto& [name, overrides] : BackendFactory::profileOverrides(team, folder, error)) {
            const auto block = team.backends.find(name);
            if (block != team.backends.end() && block->second.kind == BackendKind::LocalMoe)
                m_served.emplace(name, LocalResponder::resolve(catalog, overrides));
        }
        m_plan = RunPlan::make(team, error);
        // Which models an expert may take: those of the learned router routing to it, of the scorer scoring it.
        for (size_t i = 0; i < team.nodes.size(); ++i) {
            const auto& n = team.nodes[i];
            std::optional<std::set<std::string>> known;
            std::vector<NodeIndex> targets;
            if (n.kind == NodeKind::Router && n.config.routerStrategy == RouterStrategy::Learned) {
                known = fileModels<RouterFile>(n.config.routerFile, folder);
                for (const auto& link : m_graph.out(NodeIndex(i)))
                    targets.push_back(link.node);
            } else if (n.kind == NodeKind::Coordinator && n.config.scorer) {
                known = fileModels<ScorerFile>(n.config.scorer, folder);
                targets = m_graph.members(NodeIndex(i));
            }
            for (const auto t : targets)
                restrict(team.nodes[t].id.str(), known.value_or(std::set<std::string>{}));
        }
    }

    std::vector<std::string> flags()
    {
        for (size_t i = 0; i < m_team.nodes.size(); ++i) {
            const auto& n = m_team.nodes[i];
            const NodeIndex at(i);
            switch (n.kind) {
            case NodeKind::Router:
                router(n, at);
                break;
            case NodeKind::Aggregator:
                aggregator(n, at);
                break;
            case NodeKind::Coordinator:
                coordinator(n, at);
                break;
            case NodeKind::Expert:
                model(n);
                expertWeight(n, at);
                break;
            case NodeKind::Input:
            case NodeKind::Output:
                break;
            }
        }
        return m_flags;
    }

private:
    void add(const Node& n, const std::string& field, const std::string& values)
    {
        m_flags.push_back(n.id.str() + "." + field + "=" + values);
    }

    // FIELD=1:BOUND:1, when there is a choice.
    void count(const Node& n, const std::string& field, size_t bound)
    {
        if (bound >= 2)
            add(n, field, "1:" + std::to_string(bound) + ":1");
    }

    void restrict(const std::string& id, const std::set<std::string>& models)
    {
        auto& known = m_allowed[id];
        if (!known) {
            known = models;
            return;
        }
        std::set<std::string> both;
        std::set_intersection(known->begin(), known->end(), models.begin(), models.end(),
                              std::inserter(both, both.begin()));
        known = std::move(both);
    }

    void router(const Node& n, NodeIndex at)
    {
        switch (n.config.routerStrategy.value_or(RouterStrategy::All)) {
        case RouterStrategy::MoeGate:
            count(n, "top_k", m_graph.out(at).size());
            add(n, "min_weight", "0:0.3:0.05");
            break;
        case RouterStrategy::Learned: {
            const auto policy = n.config.routePolicy.value_or("");
            if (policy == "cheapest_above" || policy == "strong_weak")
                add(n, "threshold", "0.1:0.9:0.1");
            else if (policy == "max_utility")
                add(n, "cost_weight", "0:1:0.25");
            break;
        }
        case RouterStrategy::Llm:
            model(n);
            break;
        case RouterStrategy::All:
        case RouterStrategy::Keyword:
            break;
        }
    }

    void aggregator(const Node& n, NodeIndex at)
    {
        const auto strategy = n.config.aggregatorStrategy.value_or(AggregatorStrategy::Majority);
        if (strategy == AggregatorStrategy::Majority || strategy == AggregatorStrategy::Weighted)
            count(n, "quorum", m_graph.sourceCount(at));
        if (strategy == AggregatorStrategy::First || strategy == AggregatorStrategy::Concat)
            return;
        add(n, "min_confidence", "0.5:0.95:0.05");
        if (strategy != AggregatorStrategy::Synthesize)
            return;
        add(n, "skip_when_agree", "true,false");
        if (n.config.skipWhenAgree.value_or(false))
            add(n, "agree_fraction", "0.5:1:0.1");
        model(n);
    }

    void coordinator(const Node& n, NodeIndex at)
    {
        const size_t members = m_graph.members(at).size();
        switch (n.config.mode.value_or(CoordinatorMode::RoundRobin)) {
        case CoordinatorMode::RoundRobin:
        case CoordinatorMode::Debate:
            add(n, "max_rounds", "1:4:1");
            add(n, "consensus", "0.5:1:0.1");
            break;
        case CoordinatorMode::Cascade:
            add(n, "threshold", "0.5:0.95:0.05");
            break;
        case CoordinatorMode::Adaptive:
            count(n, "max_rounds", members);
            add(n, "consensus", "0.5:1:0.1");
            add(n, "threshold", "0.5:0.95:0.05");
            count(n, "initial", members);
            break;
        case CoordinatorMode::Decompose:
            count(n, "max_subtasks", members);
            model(n);
            break;
        }
    }

    // NODE.model over its own and the sensible others its local-moe backend serves.
    void model(const Node& n)
    {
        if (!m_plan || !n.callsModel())
            return;
        const auto index = m_plan->indexOf(n.id);
        const std::optional<CallSettings> call = index ? m_plan->at(*index).call : std::nullopt;
        if (!call)
            return;
        const auto served = m_served.find(call->backend);
        if (served == m_served.end())
            return;
        const auto allowed = m_allowed.find(n.id.str());
        const auto names =
            modelChoices(call->model, served->second, allowed == m_allowed.end() ? std::nullopt : allowed->second);
        if (names.size() >= 2)
            add(n, "model", joined(names));
    }

    void expertWeight(const Node& n, NodeIndex at)
    {
        for (const auto& link : m_graph.out(at)) {
            const auto& to = m_team.nodes[link.node];
            if (to.kind == NodeKind::Aggregator && to.config.aggregatorStrategy == AggregatorStrategy::Weighted) {
                add(n, "weight", "0.5:2:0.5");
                return;
            }
        }
    }

    const Team& m_team;
    TeamGraph m_graph;
    std::shared_ptr<const RunPlan> m_plan;
    std::map<BackendName, Served> m_served;
    std::map<std::string, std::optional<std::set<std::string>>> m_allowed;
    std::vector<std::string> m_flags;
};

} // namespace

std::vector<std::string> SpaceProposal::flags(const Team& team, const std::filesystem::path& folder,
                                              const std::map<std::string, ModelProfile>& catalog)
{
    return Proposer(team, folder, catalog).flags();
}

} // namespace conclave
