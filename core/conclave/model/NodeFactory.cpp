#include "conclave/model/NodeFactory.h"

#include "conclave/model/DefaultValues.h"

#include <algorithm>
#include <unordered_set>

namespace conclave {

bool NodeFactory::isIdChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
}

bool NodeFactory::isValidId(std::string_view id)
{
    return !id.empty() && std::all_of(id.begin(), id.end(), isIdChar);
}

Node NodeFactory::make(NodeKind kind, NodeId id, std::optional<Position> pos)
{
    Node node;
    node.id = std::move(id);
    node.kind = kind;
    node.pos = pos;
    auto& c = node.config;
    switch (kind) {
    case NodeKind::Input:
    case NodeKind::Output:
        break;
    case NodeKind::Router:
        c.routerStrategy = RouterStrategy::All;
        break;
    case NodeKind::Expert:
        c.call.model = "local/generalist-7b";
        c.call.prompt = "{{input}}";
        break;
    case NodeKind::Coordinator:
        c.mode = CoordinatorMode::RoundRobin;
        c.maxRounds = defaults::kMaxRounds;
        break;
    case NodeKind::Aggregator:
        c.aggregatorStrategy = AggregatorStrategy::Majority;
        break;
    }
    return node;
}

NodeId NodeFactory::uniqueId(const Team& team, std::string_view base)
{
    std::string clean;
    for (const char c : base)
        clean += isIdChar(c) ? c : '_';
    if (clean.empty())
        clean = "node";
    std::unordered_set<std::string> used;
    for (const auto& n : team.nodes)
        used.insert(n.id.str());
    if (!used.contains(clean))
        return NodeId(clean);
    // "expert_2" stays "expert_3", not "expert_2_2".
    std::string stem = clean;
    const auto underscore = stem.rfind('_');
    if (underscore != std::string::npos && underscore + 1 < stem.size() &&
        stem.find_first_not_of("0123456789", underscore + 1) == std::string::npos)
        stem.resize(underscore);
    for (size_t n = 2;; ++n) {
        auto candidate = stem + '_' + std::to_string(n);
        if (!used.contains(candidate))
            return NodeId(std::move(candidate));
    }
}

} // namespace conclave
