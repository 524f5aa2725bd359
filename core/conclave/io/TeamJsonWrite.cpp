#include "conclave/io/CanonicalJson.h"
#include "conclave/io/TeamJson.h"
#include "conclave/model/RouterStrategies.h"

#include <cmath>

namespace conclave {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Whole numbers are written without a fraction so positions diff cleanly.
ordered_json numberJson(double value)
{
    if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 9.0e15)
        return static_cast<int64_t>(value);
    return value;
}

template <class T> void put(ordered_json& out, std::string_view key, const std::optional<T>& value)
{
    if (value)
        out[std::string(key)] = *value;
}

void putNumber(ordered_json& out, std::string_view key, const std::optional<double>& value)
{
    if (value)
        out[std::string(key)] = numberJson(*value);
}

// Unknown keys go after the known ones, sorted (json objects iterate sorted).
void putExtra(ordered_json& out, const json& extra)
{
    for (const auto& [key, value] : extra.items())
        out[key] = ordered_json(value);
}

ordered_json paramsJson(const ModelParams& params)
{
    ordered_json out = ordered_json::object();
    putNumber(out, "temperature", params.temperature);
    put(out, "max_tokens", params.maxTokens);
    putNumber(out, "top_p", params.topP);
    put(out, "stop", params.stop);
    putExtra(out, params.extra);
    return out;
}

ordered_json distributionJson(const Distribution& d)
{
    ordered_json out = ordered_json::object();
    out["median"] = numberJson(d.median);
    out["p95"] = numberJson(d.p95);
    return out;
}

ordered_json priceJson(const Price& p)
{
    ordered_json out = ordered_json::object();
    out["input"] = numberJson(p.input);
    out["output"] = numberJson(p.output);
    return out;
}

// A field of a router strategy, written from its slot by the slot's type (RouterStrategies).
void putRouterField(ordered_json& out, const RouterField& field, const NodeConfig& config)
{
    std::visit(
        [&](auto member) {
            const auto& value = config.*member;
            using T = std::decay_t<decltype(*value)>;
            if constexpr (std::is_same_v<T, RouteTable>) {
                if (!value)
                    return;
                ordered_json table = ordered_json::object();
                for (const auto& [label, patterns] : *value)
                    table[label] = patterns;
                out[std::string(field.key)] = table;
            } else if constexpr (std::is_same_v<T, double>) {
                putNumber(out, field.key, value);
            } else {
                put(out, field.key, value);
            }
        },
        field.slot);
}

void putModelCall(ordered_json& out, const ModelCall& call)
{
    if (call.backend)
        out["backend"] = call.backend->str();
    put(out, "model", call.model);
    put(out, "fallback_model", call.fallbackModel);
    put(out, "system", call.system);
    put(out, "prompt", call.prompt);
    if (call.params)
        out["params"] = paramsJson(*call.params);
    put(out, "timeout_ms", call.timeoutMs);
    put(out, "retries", call.retries);
}

ordered_json nodeJson(const Node& node)
{
    const auto& c = node.config;
    ordered_json out = ordered_json::object();
    out["id"] = node.id.str();
    out["kind"] = std::string(toString(node.kind));
    put(out, "label", c.label);
    if (c.routerStrategy)
        out["strategy"] = std::string(toString(*c.routerStrategy));
    if (c.aggregatorStrategy)
        out["strategy"] = std::string(toString(*c.aggregatorStrategy));
    if (c.mode)
        out["mode"] = std::string(toString(*c.mode));
    for (const RouterField* field : RouterStrategies::fields())
        putRouterField(out, *field, c);
    put(out, "quorum", c.quorum);
    putNumber(out, "min_confidence", c.minConfidence);
    put(out, "deadline_ms", c.deadlineMs);
    put(out, "skip_when_agree", c.skipWhenAgree);
    putNumber(out, "agree_fraction", c.agreeFraction);
    put(out, "max_rounds", c.maxRounds);
    putNumber(out, "consensus", c.consensus);
    putNumber(out, "threshold", c.threshold);
    put(out, "initial", c.initial);
    put(out, "max_subtasks", c.maxSubtasks);
    put(out, "scorer", c.scorer);
    putModelCall(out, c.call);
    putNumber(out, "weight", c.weight);
    if (node.pos)
        out["pos"] = ordered_json::array({numberJson(node.pos->x), numberJson(node.pos->y)});
    putExtra(out, node.extra);
    return out;
}

ordered_json edgeJson(const Edge& edge)
{
    ordered_json out = ordered_json::object();
    out["from"] = edge.from.str();
    out["to"] = edge.to.str();
    put(out, "when", edge.when);
    if (edge.isMember())
        out["role"] = "member";
    putExtra(out, edge.extra);
    return out;
}

ordered_json backendJson(const Backend& b)
{
    ordered_json out = ordered_json::object();
    out["kind"] = std::string(toString(b.kind));
    put(out, "seed", b.seed);
    putNumber(out, "time_scale", b.timeScale);
    if (b.models) {
        ordered_json models = ordered_json::object();
        for (const auto& [name, profile] : *b.models)
            models[name] = profileToJson(profile);
        out["models"] = models;
    }
    put(out, "models_file", b.modelsFile);
    if (b.experiments)
        out["experiments"] = *b.experiments;
    put(out, "db", b.db);
    if (b.excludeDesigns)
        out["exclude_designs"] = *b.excludeDesigns;
    put(out, "on_missing", b.onMissing);
    put(out, "base_url", b.baseUrl);
    put(out, "api_key_env", b.apiKeyEnv);
    put(out, "max_concurrency", b.maxConcurrency);
    put(out, "background_inflight", b.backgroundInflight);
    put(out, "requests_per_minute", b.requestsPerMinute);
    put(out, "stream", b.stream);
    put(out, "max_tokens_param", b.maxTokensParam);
    put(out, "ca_file", b.caFile);
    put(out, "connect_timeout_ms", b.connectTimeoutMs);
    if (b.headers) {
        ordered_json headers = ordered_json::object();
        for (const auto& [name, value] : *b.headers)
            headers[name] = value;
        out["headers"] = headers;
    }
    if (b.prices) {
        ordered_json prices = ordered_json::object();
        for (const auto& [model, price] : *b.prices)
            prices[model] = priceJson(price);
        out["prices"] = prices;
    }
    putExtra(out, b.extra);
    return out;
}

} // namespace

ordered_json profileToJson(const ModelProfile& profile)
{
    ordered_json out = ordered_json::object();
    if (profile.skills) {
        ordered_json skills = ordered_json::object();
        for (const auto& [domain, skill] : *profile.skills)
            skills[domain] = numberJson(skill);
        out["skills"] = skills;
    }
    if (profile.ttftMs)
        out["ttft_ms"] = distributionJson(*profile.ttftMs);
    if (profile.tokensPerS)
        out["tokens_per_s"] = distributionJson(*profile.tokensPerS);
    if (profile.outputTokens)
        out["output_tokens"] = distributionJson(*profile.outputTokens);
    if (profile.pricePerMtok)
        out["price_per_mtok"] = priceJson(*profile.pricePerMtok);
    put(out, "context_tokens", profile.contextTokens);
    putNumber(out, "failure_rate", profile.failureRate);
    putNumber(out, "error_agreement", profile.errorAgreement);
    putNumber(out, "difficulty_weight", profile.difficultyWeight);
    if (profile.confidence) {
        const auto draw = [](const ConfidenceDraw& d) {
            ordered_json spread = ordered_json::object();
            spread["mean"] = numberJson(d.mean);
            spread["sd"] = numberJson(d.sd);
            if (!d.quantiles.empty()) {
                ordered_json list = ordered_json::array();
                for (const double q : d.quantiles)
                    list.push_back(numberJson(q));
                spread["quantiles"] = list;
            }
            return spread;
        };
        ordered_json confidence = ordered_json::object();
        confidence["right"] = draw(profile.confidence->right);
        confidence["wrong"] = draw(profile.confidence->wrong);
        out["confidence"] = confidence;
    }
    if (profile.synthesis) {
        ordered_json table = ordered_json::array();
        for (const double p : profile.synthesis->pRightGivenRight)
            table.push_back(numberJson(p));
        ordered_json synthesis = ordered_json::object();
        synthesis["p_right_given_right"] = table;
        synthesis["self_answer"] = numberJson(profile.synthesis->selfAnswer);
        out["synthesis"] = synthesis;
    }
    putNumber(out, "load_slope", profile.loadSlope);
    putNumber(out, "retry_repeat", profile.retryRepeat);
    putNumber(out, "conformity", profile.conformity);
    putNumber(out, "repeat_agreement", profile.repeatAgreement);
    if (profile.skillsCi) {
        ordered_json intervals = ordered_json::object();
        for (const auto& [domain, interval] : *profile.skillsCi)
            intervals[domain] = ordered_json::array({numberJson(interval.first), numberJson(interval.second)});
        out["skills_ci"] = intervals;
    }
    if (profile.trials) {
        ordered_json counts = ordered_json::object();
        for (const auto& [domain, count] : *profile.trials)
            counts[domain] = count;
        out["trials"] = counts;
    }
    put(out, "fitted", profile.fitted);
    if (profile.calibratedFrom) {
        ordered_json sources = ordered_json::array();
        for (const auto& source : *profile.calibratedFrom)
            sources.push_back(ordered_json{{"experiment", source.experiment}, {"answers", source.answers}});
        out["calibrated_from"] = sources;
    }
    putExtra(out, profile.extra);
    return out;
}

ordered_json teamToJson(const Team& team)
{
    ordered_json out = ordered_json::object();
    // The lowest version that holds the team: a Conclave that knows only version 1 refuses what it would misrun.
    out["conclave"] = formatVersionNeeded(team);
    out["name"] = team.name;
    put(out, "description", team.description);
    if (!team.backends.empty()) {
        ordered_json backends = ordered_json::object();
        for (const auto& [name, backend] : team.backends)
            backends[name.str()] = backendJson(backend);
        out["backends"] = backends;
    }
    if (team.defaults) {
        const auto& d = *team.defaults;
        ordered_json defaults = ordered_json::object();
        if (d.backend)
            defaults["backend"] = d.backend->str();
        put(defaults, "model", d.model);
        put(defaults, "timeout_ms", d.timeoutMs);
        put(defaults, "retries", d.retries);
        if (d.params)
            defaults["params"] = paramsJson(*d.params);
        putExtra(defaults, d.extra);
        out["defaults"] = defaults;
    }
    if (team.budget) {
        const auto& b = *team.budget;
        ordered_json budget = ordered_json::object();
        putNumber(budget, "max_cost_usd", b.maxCostUsd);
        put(budget, "max_tokens", b.maxTokens);
        put(budget, "max_wall_ms", b.maxWallMs);
        putExtra(budget, b.extra);
        out["budget"] = budget;
    }
    ordered_json nodes = ordered_json::array();
    for (const auto& node : team.nodes)
        nodes.push_back(nodeJson(node));
    out["nodes"] = nodes;
    ordered_json edges = ordered_json::array();
    for (const auto& edge : team.edges)
        edges.push_back(edgeJson(edge));
    out["edges"] = edges;
    putExtra(out, team.extra);
    return out;
}

std::string teamToJsonText(const Team& team)
{
    return canonicalJsonText(teamToJson(team));
}

} // namespace conclave
