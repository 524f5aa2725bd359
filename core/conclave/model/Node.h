#pragma once

#include "conclave/model/NodeKind.h"
#include "conclave/model/RouterField.h"
#include "conclave/model/StrongId.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// Sampling parameters of a model call (`params` in a team file).
struct ModelParams {
    std::optional<double> temperature;
    std::optional<int64_t> maxTokens;
    std::optional<double> topP;
    std::optional<std::vector<std::string>> stop;
    nlohmann::json extra;  // unknown keys, kept as they were; null when there are none (copies stay cheap)

    // The `seed` an endpoint is sent (an extra key), as JSON text; empty when there is none.
    std::string seedText() const
    {
        if (!extra.is_object())
            return {};
        const auto it = extra.find("seed");
        return it == extra.end() ? std::string() : it->dump();
    }

    friend bool operator==(const ModelParams&, const ModelParams&) = default;
};

// The fields of a node that calls a model: an expert, and the router (`llm`),
// aggregator (`synthesize`) and coordinator (`decompose`) that need one.
struct ModelCall {
    std::optional<BackendName> backend;
    std::optional<std::string> model;
    std::optional<std::string> fallbackModel;
    std::optional<std::string> system;
    std::optional<std::string> prompt;
    std::optional<ModelParams> params;
    std::optional<int64_t> timeoutMs;
    std::optional<int64_t> retries;

    friend bool operator==(const ModelCall&, const ModelCall&) = default;
};

// What a node means: every field a run reads. Which fields a kind accepts is
// listed in TeamJson; a field a kind does not accept is never set here.
struct NodeConfig {
    std::optional<std::string> label;

    // router
    std::optional<RouterStrategy> routerStrategy;
    std::optional<RouteTable> routes;
    std::optional<std::string> defaultRoute;
    std::optional<int64_t> topK;
    std::optional<double> minWeight;
    // learned (format version 3): a trained router file and the policy that reads it
    std::optional<std::string> routerFile;
    std::optional<std::string> routePolicy; // cheapest_above | max_utility | strong_weak
    std::optional<double> routeThreshold;
    std::optional<double> costWeight;
    std::optional<std::string> strongRoute; // strong_weak: the target of the strong route
    std::optional<std::string> weakRoute;

    // aggregator
    std::optional<AggregatorStrategy> aggregatorStrategy;
    std::optional<int64_t> quorum;
    std::optional<double> minConfidence;
    std::optional<int64_t> deadlineMs;
    // synthesize: return the inputs' shared answer without a model call when
    // at least agreeFraction of them agree (format version 2)
    std::optional<bool> skipWhenAgree;
    std::optional<double> agreeFraction;

    // coordinator
    std::optional<CoordinatorMode> mode;
    std::optional<int64_t> maxRounds;
    std::optional<double> consensus;
    std::optional<double> threshold;
    std::optional<int64_t> initial; // adaptive: members asked in the first round (format version 2)
    std::optional<int64_t> maxSubtasks; // decompose: the most subtasks a plan may have (format version 3)
    // cascade, adaptive: a scorer file (conclave train-scorer) whose P(right) replaces the members'
    // stated confidence; a relative path is found in the team file's folder (format version 3)
    std::optional<std::string> scorer;

    // expert, and any other node that calls a model
    ModelCall call;
    std::optional<double> weight;

    friend bool operator==(const NodeConfig&, const NodeConfig&) = default;
};

// Where a node is drawn. Layout never changes what a run does.
struct Position {
    double x = 0;
    double y = 0;

    friend bool operator==(const Position&, const Position&) = default;
};

struct Node {
    NodeId id;
    NodeKind kind = NodeKind::Expert;
    NodeConfig config;
    std::optional<Position> pos;
    nlohmann::json extra;  // unknown keys; null when none

    std::string displayName() const { return config.label.value_or(id.str()); }
    // Whether its kind and settings make it call a model: an expert, a router whose strategy
    // does (RouterStrategies: `llm`), a `synthesize` aggregator, a `decompose` coordinator.
    // The one rule the validator, provenance and cost bounds read.
    bool callsModel() const;

    friend bool operator==(const Node&, const Node&) = default;
};

struct Edge {
    NodeId from;
    NodeId to;
    std::optional<std::string> when;
    EdgeRole role = EdgeRole::Flow;
    nlohmann::json extra;  // unknown keys; null when none

    bool isMember() const { return role == EdgeRole::Member; }

    friend bool operator==(const Edge&, const Edge&) = default;
};

} // namespace conclave
