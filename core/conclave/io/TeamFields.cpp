#include "conclave/io/TeamFields.h"

#include "conclave/model/RouterStrategies.h"
#include "conclave/model/Team.h"

#include <algorithm>
#include <array>
#include <vector>

namespace conclave {

namespace {

using K = std::string_view;

constexpr std::array<K, 8> kTeam{"conclave", "name", "description", "backends", "defaults", "budget", "nodes", "edges"};
constexpr std::array<K, 4> kEdge{"from", "to", "when", "role"};
constexpr std::array<K, 4> kParams{"temperature", "max_tokens", "top_p", "stop"};
constexpr std::array<K, 5> kDefaults{"backend", "model", "timeout_ms", "retries", "params"};
constexpr std::array<K, 3> kBudget{"max_cost_usd", "max_tokens", "max_wall_ms"};
constexpr std::array<K, 19> kProfile{"skills",           "ttft_ms",          "tokens_per_s",   "output_tokens",
                                     "price_per_mtok",   "context_tokens",   "failure_rate",   "error_agreement",
                                     "difficulty_weight", "confidence",      "synthesis",      "load_slope",
                                     "retry_repeat",     "conformity",       "repeat_agreement", "skills_ci",
                                     "trials",           "fitted",           "calibrated_from"};
constexpr std::array<K, 2> kDistribution{"median", "p95"};
constexpr std::array<K, 2> kPrice{"input", "output"};

constexpr std::array<K, 7> kLocalBackend{"kind",        "seed",           "time_scale",         "models",
                                         "models_file", "max_concurrency", "background_inflight"};
constexpr std::array<K, 12> kOpenAiBackend{
    "kind",   "models_file",      "base_url", "api_key_env",        "max_concurrency", "requests_per_minute",
    "stream", "max_tokens_param", "ca_file",  "connect_timeout_ms", "headers",         "prices"};
constexpr std::array<K, 9> kRecordedBackend{"kind",       "experiments",     "db",   "exclude_designs", "on_missing",
                                            "max_concurrency", "seed", "models", "models_file"};
constexpr std::array<K, 20> kAnyBackend{"kind",
                                        "seed",
                                        "time_scale",
                                        "models",
                                        "models_file",
                                        "experiments",
                                        "db",
                                        "exclude_designs",
                                        "on_missing",
                                        "base_url",
                                        "api_key_env",
                                        "max_concurrency",
                                        "background_inflight",
                                        "requests_per_minute",
                                        "stream",
                                        "max_tokens_param",
                                        "ca_file",
                                        "connect_timeout_ms",
                                        "headers",
                                        "prices"};

// Canonical node key order: identity, meaning, model call, layout.
// Canonical node key order: identity, meaning, model call, layout. A router's
// strategy fields (RouterStrategies) come right after "mode", in the order the
// strategies list them.
constexpr std::array<K, 4> kNodeHead{"id", "kind", "label", "strategy"};
constexpr std::array<K, 1> kNodeMode{"mode"};
constexpr std::array<K, 21> kNodeMeaningAndCall{
    "quorum",    "min_confidence", "deadline_ms",  "skip_when_agree", "agree_fraction", "max_rounds", "consensus",
    "threshold", "initial",        "max_subtasks", "scorer",          "backend",        "model",          "fallback_model",
    "system",    "prompt",         "params",       "timeout_ms",      "retries",        "weight",         "pos"};
constexpr std::array<K, 8> kModelCallKeys{"backend", "model", "fallback_model", "system", "prompt",
                                          "params",  "timeout_ms", "retries"};

std::vector<K> routerFieldKeys()
{
    std::vector<K> out;
    for (const RouterField* field : RouterStrategies::fields())
        out.push_back(field->key);
    return out;
}

std::vector<K> anyNodeKeys()
{
    std::vector<K> out(kNodeHead.begin(), kNodeHead.end());
    out.insert(out.end(), kNodeMode.begin(), kNodeMode.end());
    const auto router = routerFieldKeys();
    out.insert(out.end(), router.begin(), router.end());
    // A key a router field shares with another kind (a strategy's threshold) keeps its first place.
    for (const K key : kNodeMeaningAndCall) {
        if (std::find(out.begin(), out.end(), key) == out.end())
            out.push_back(key);
    }
    return out;
}

std::vector<K> routerNodeKeys()
{
    std::vector<K> out(kNodeHead.begin(), kNodeHead.end());
    const auto router = routerFieldKeys();
    out.insert(out.end(), router.begin(), router.end());
    out.insert(out.end(), kModelCallKeys.begin(), kModelCallKeys.end());
    out.push_back("pos");
    return out;
}

constexpr std::array<K, 4> kInputNode{"id", "kind", "label", "pos"};
constexpr std::array<K, 4> kOutputNode{"id", "kind", "label", "pos"};
constexpr std::array<K, 13> kExpertNode{"id",     "kind",   "label",  "backend",    "model",   "fallback_model",
                                        "system", "prompt", "params", "timeout_ms", "retries", "weight",
                                        "pos"};
constexpr std::array<K, 18> kAggregatorNode{
    "id",          "kind",           "label",          "strategy", "quorum",  "min_confidence",
    "deadline_ms", "skip_when_agree", "agree_fraction", "backend",  "model",   "fallback_model",
    "system",      "prompt",         "params",         "timeout_ms", "retries", "pos"};
constexpr std::array<K, 19> kCoordinatorNode{
    "id",     "kind",           "label",  "mode",   "max_rounds", "consensus",  "threshold", "initial", "max_subtasks", "scorer",
    "backend", "model",         "fallback_model", "system", "prompt", "params", "timeout_ms", "retries", "pos"};

} // namespace

std::span<const std::string_view> teamObjectKeys(TeamObject object)
{
    switch (object) {
    case TeamObject::Team:
        return kTeam;
    case TeamObject::Node: {
        static const std::vector<K> kAnyNode = anyNodeKeys();
        return kAnyNode;
    }
    case TeamObject::Edge:
        return kEdge;
    case TeamObject::Backend:
        return kAnyBackend;
    case TeamObject::Params:
        return kParams;
    case TeamObject::Defaults:
        return kDefaults;
    case TeamObject::Budget:
        return kBudget;
    case TeamObject::Profile:
        return kProfile;
    case TeamObject::Distribution:
        return kDistribution;
    case TeamObject::Price:
        return kPrice;
    }
    return {};
}

std::span<const std::string_view> nodeKeys(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Input:
        return kInputNode;
    case NodeKind::Output:
        return kOutputNode;
    case NodeKind::Router: {
        static const std::vector<K> kRouterNode = routerNodeKeys();
        return kRouterNode;
    }
    case NodeKind::Expert:
        return kExpertNode;
    case NodeKind::Aggregator:
        return kAggregatorNode;
    case NodeKind::Coordinator:
        return kCoordinatorNode;
    }
    return {};
}

std::span<const std::string_view> backendKeys(BackendKind kind)
{
    switch (kind) {
    case BackendKind::OpenAi:
        return kOpenAiBackend;
    case BackendKind::Recorded:
        return kRecordedBackend;
    case BackendKind::LocalMoe:
        break;
    }
    return kLocalBackend;
}

bool containsKey(std::span<const std::string_view> keys, std::string_view key)
{
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

} // namespace conclave

namespace conclave {

namespace {

constexpr double kBig = 1e300;

// The "conclave" rule names the newest version in words; a new version updates both.
static_assert(kTeamFormatVersion == 3, "update the \"conclave\" rule's \"format version 1 to N\"");

constexpr std::array<FieldRule, 40> kRules{{
    {"conclave", "format version 1 to 3", true, 1, kBig, false},
    {"timeout_ms", "a positive integer", true, 0, kBig, true},
    {"deadline_ms", "a positive integer", true, 0, kBig, true},
    {"max_wall_ms", "a positive integer", true, 0, kBig, true},
    {"connect_timeout_ms", "a positive integer", true, 0, kBig, true},
    {"max_tokens", "a positive integer", true, 0, kBig, true},
    {"context_tokens", "a positive integer", true, 0, kBig, true},
    {"max_concurrency", "a positive integer", true, 0, kBig, true},
    {"requests_per_minute", "a positive integer", true, 0, kBig, true},
    {"retries", "an integer from 0 to 10", true, 0, 10, false},
    {"initial", "an integer of at least 1", true, 1, kBig, false},
    {"max_subtasks", "an integer of at least 1", true, 1, kBig, false},
    {"quorum", "an integer of at least 1", true, 1, kBig, false},
    {"max_rounds", "an integer from 1 to 100", true, 1, 100, false},
    {"seed", "a non-negative integer", true, 0, kBig, false},
    {"temperature", "a number from 0 to 2", false, 0, 2, false},
    {"top_p", "a number from 0 to 1", false, 0, 1, false},
    {"min_confidence", "a number from 0 to 1", false, 0, 1, false},
    {"threshold", "a number from 0 to 1", false, 0, 1, false},
    {"failure_rate", "a number from 0 to 1", false, 0, 1, false},
    {"error_agreement", "a number from 0 to 1", false, 0, 1, false},
    {"trials", "a non-negative integer", true, 0, kBig, false},
    {"difficulty_weight", "a number from 0 to 1", false, 0, 1, false},
    {"load_slope", "a non-negative number", false, 0, kBig, false},
    {"retry_repeat", "a number from 0 to 1", false, 0, 1, false},
    {"conformity", "a number from 0 to 1", false, 0, 1, false},
    {"repeat_agreement", "a number from 0 to 1", false, 0, 1, false},
    {"mean", "a number from 0 to 1", false, 0, 1, false},
    {"sd", "a non-negative number", false, 0, kBig, false},
    {"quantiles", "a number from 0 to 1", false, 0, 1, false},
    {"p_right_given_right", "a number from 0 to 1", false, 0, 1, false},
    {"self_answer", "a number from 0 to 1", false, 0, 1, false},
    {"answers", "a non-negative integer", true, 0, kBig, false},
    {"background_inflight", "a non-negative integer", true, 0, kBig, false},
    {"skill", "a number from 0 to 1", false, 0, 1, false},
    {"consensus", "a number above 0 and at most 1", false, 0, 1, true},
    {"agree_fraction", "a number above 0 and at most 1", false, 0, 1, true},
    {"weight", "a non-negative number", false, 0, kBig, false},
    {"time_scale", "a positive number", false, 0, kBig, true},
    {"max_cost_usd", "a positive number", false, 0, kBig, true},
}};

constexpr FieldRule kNonNegative{"", "a non-negative number", false, 0, kBig, false};

} // namespace

const FieldRule& fieldRule(std::string_view key)
{
    for (const auto& rule : kRules) {
        if (rule.key == key)
            return rule;
    }
    // A router's numeric fields: their strategies' rules.
    if (const RouterField* field = RouterStrategies::field(key);
        field && (field->kind == FieldKind::Number || field->kind == FieldKind::Integer))
        return field->rule;
    // median, p95, input, output: distributions and prices.
    return kNonNegative;
}

} // namespace conclave
