#include "conclave/validate/FieldChecks.h"

#include "conclave/io/TeamFields.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace conclave::checks {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string formatNumber(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

class FieldChecker {
public:
    FieldChecker(const Team& team, const ValidationContext& context, ProblemSink& sink)
        : m_team(team), m_context(context), m_sink(sink)
    {
    }

    void run()
    {
        if (m_team.name.empty())
            m_sink.warning("/name", "the team has no name");
        for (const auto& [name, backend] : m_team.backends)
            checkBackend(childPointer("/backends", name.str()), backend);
        if (m_team.defaults)
            checkDefaults(*m_team.defaults);
        if (m_team.budget)
            checkBudget(*m_team.budget);
        for (size_t i = 0; i < m_team.nodes.size(); ++i)
            checkNode(childPointer("/nodes", i), m_team.nodes[i]);
        for (size_t i = 0; i < m_team.edges.size(); ++i)
            unknownKeys(childPointer("/edges", i), m_team.edges[i].extra, "an edge", {}, i);
        unknownKeys("", m_team.extra, "a team");
    }

private:
    template <class T>
    void range(const std::string& pointer, std::string_view key, const std::optional<T>& value,
               const std::optional<NodeId>& node = {})
    {
        if (!value)
            return;
        const auto& rule = fieldRule(key);
        const double v = static_cast<double>(*value);
        if (!rule.accepts(v))
            m_sink.error(childPointer(pointer, key),
                         "expected " + std::string(rule.expected) + ", got " + formatNumber(v), node);
    }

    void unknownKeys(const std::string& pointer, const nlohmann::json& extra, std::string_view owner,
                     const std::optional<NodeId>& node = {}, std::optional<size_t> edge = {})
    {
        for (const auto& [key, value] : extra.items()) {
            if (isSecretKey(key)) {
                m_sink.error(childPointer(pointer, key),
                             "a literal secret is not allowed in a team file; name an environment variable in "
                             "api_key_env instead",
                             node, edge);
                continue;
            }
            m_sink.warning(childPointer(pointer, key),
                           "unknown key for " + std::string(owner) + "; it is kept as is", node, edge);
            findNestedSecrets(childPointer(pointer, key), value, node);
        }
    }

    static bool isSecretKey(std::string_view key)
    {
        const auto k = lower(key);
        return k == "api_key" || k == "apikey" || k == "api-key" || k == "authorization" || k == "bearer_token";
    }

    void findNestedSecrets(const std::string& pointer, const nlohmann::json& value, const std::optional<NodeId>& node)
    {
        if (value.is_object()) {
            for (const auto& [key, child] : value.items()) {
                const auto where = childPointer(pointer, key);
                if (isSecretKey(key))
                    m_sink.error(where, "a literal secret is not allowed in a team file", node);
                else
                    findNestedSecrets(where, child, node);
            }
        } else if (value.is_array()) {
            for (size_t i = 0; i < value.size(); ++i)
                findNestedSecrets(childPointer(pointer, i), value[i], node);
        }
    }

    void checkParams(const std::string& pointer, const ModelParams& params, const std::optional<NodeId>& node)
    {
        range(pointer, "temperature", params.temperature, node);
        range(pointer, "max_tokens", params.maxTokens, node);
        range(pointer, "top_p", params.topP, node);
        unknownKeys(pointer, params.extra, "params", node);
    }

    void checkDistribution(const std::string& pointer, const Distribution& d, bool tailIsSlower)
    {
        if (d.median < 0 || d.p95 < 0) {
            m_sink.error(pointer, "expected non-negative median and p95");
            return;
        }
        if (tailIsSlower && d.p95 < d.median)
            m_sink.error(childPointer(pointer, "p95"), "p95 (" + formatNumber(d.p95) +
                                                           ") must not be below the median (" +
                                                           formatNumber(d.median) + ")");
        if (!tailIsSlower && d.p95 > d.median)
            m_sink.error(childPointer(pointer, "p95"),
                         "p95 (" + formatNumber(d.p95) + ") is the slow tail and must not exceed the median (" +
                             formatNumber(d.median) + ")");
    }

    void checkProfile(const std::string& pointer, const ModelProfile& profile)
    {
        if (profile.skills) {
            for (const auto& [domain, skill] : *profile.skills) {
                if (!fieldRule("skill").accepts(skill))
                    m_sink.error(childPointer(childPointer(pointer, "skills"), domain),
                                 "expected a number from 0 to 1, got " + formatNumber(skill));
            }
        }
        if (profile.ttftMs)
            checkDistribution(childPointer(pointer, "ttft_ms"), *profile.ttftMs, true);
        if (profile.tokensPerS) {
            checkDistribution(childPointer(pointer, "tokens_per_s"), *profile.tokensPerS, false);
            if (profile.tokensPerS->p95 <= 0)
                m_sink.error(childPointer(childPointer(pointer, "tokens_per_s"), "p95"),
                             "expected a positive speed, got " + formatNumber(profile.tokensPerS->p95));
        }
        if (profile.outputTokens)
            checkDistribution(childPointer(pointer, "output_tokens"), *profile.outputTokens, true);
        if (profile.pricePerMtok && (profile.pricePerMtok->input < 0 || profile.pricePerMtok->output < 0))
            m_sink.error(childPointer(pointer, "price_per_mtok"), "prices must not be negative");
        range(pointer, "context_tokens", profile.contextTokens);
        range(pointer, "failure_rate", profile.failureRate);
        unknownKeys(pointer, profile.extra, "a model profile");
    }

    void checkBackend(const std::string& pointer, const Backend& b)
    {
        range(pointer, "seed", b.seed);
        range(pointer, "time_scale", b.timeScale);
        if (b.models) {
            for (const auto& [name, profile] : *b.models)
                checkProfile(childPointer(childPointer(pointer, "models"), name), profile);
        }
        if (b.kind == BackendKind::OpenAi) {
            if (!b.baseUrl || b.baseUrl->empty())
                m_sink.error(childPointer(pointer, "base_url"), "an openai backend needs a base_url");
            else if (!b.baseUrl->starts_with("http://") && !b.baseUrl->starts_with("https://"))
                m_sink.error(childPointer(pointer, "base_url"),
                             "expected an http:// or https:// URL, got \"" + *b.baseUrl + "\"");
            if (b.apiKeyEnv && b.apiKeyEnv->empty())
                m_sink.error(childPointer(pointer, "api_key_env"), "expected the name of an environment variable");
            if (b.maxTokensParam && *b.maxTokensParam != "max_tokens" && *b.maxTokensParam != "max_completion_tokens")
                m_sink.error(childPointer(pointer, "max_tokens_param"),
                             "expected max_tokens or max_completion_tokens, got \"" + *b.maxTokensParam + "\"");
            range(pointer, "max_concurrency", b.maxConcurrency);
            range(pointer, "requests_per_minute", b.requestsPerMinute);
            range(pointer, "connect_timeout_ms", b.connectTimeoutMs);
            if (b.headers) {
                for (const auto& [name, value] : *b.headers) {
                    if (isSecretKey(name) || lower(value).starts_with("bearer "))
                        m_sink.error(childPointer(childPointer(pointer, "headers"), name),
                                     "a literal secret is not allowed in a team file; name an environment variable "
                                     "in api_key_env instead");
                }
            }
        }
        unknownKeys(pointer, b.extra, std::string("a ") + std::string(toString(b.kind)) + " backend");
    }

    void checkDefaults(const Defaults& d)
    {
        if (d.backend && !m_team.backends.contains(*d.backend))
            m_sink.error("/defaults/backend", "unknown backend \"" + d.backend->str() + "\"");
        range("/defaults", "timeout_ms", d.timeoutMs);
        range("/defaults", "retries", d.retries);
        if (d.params)
            checkParams("/defaults/params", *d.params, {});
        unknownKeys("/defaults", d.extra, "defaults");
    }

    void checkBudget(const Budget& b)
    {
        range("/budget", "max_cost_usd", b.maxCostUsd);
        range("/budget", "max_tokens", b.maxTokens);
        range("/budget", "max_wall_ms", b.maxWallMs);
        unknownKeys("/budget", b.extra, "a budget");
    }

    // The backend a node's calls go to: its own, the team default, or the only one.
    const Backend* resolveBackend(const std::string& pointer, const Node& node)
    {
        const auto& explicitName =
            node.config.call.backend ? node.config.call.backend
                                     : (m_team.defaults ? m_team.defaults->backend : std::optional<BackendName>{});
        if (explicitName) {
            const auto it = m_team.backends.find(*explicitName);
            if (it != m_team.backends.end())
                return &it->second;
            if (node.config.call.backend)
                m_sink.error(childPointer(pointer, "backend"), "unknown backend \"" + explicitName->str() + "\"",
                             node.id);
            return nullptr;
        }
        if (m_team.backends.size() == 1)
            return &m_team.backends.begin()->second;
        if (m_team.backends.empty())
            m_sink.error(pointer, "\"" + node.id.str() + "\" calls a model but the team has no backends", node.id);
        else
            m_sink.error(childPointer(pointer, "backend"),
                         "the team has several backends; set backend here or in defaults", node.id);
        return nullptr;
    }

    void checkModelName(const std::string& where, const std::string& model, const Backend& backend,
                        const NodeId& node)
    {
        if (backend.kind != BackendKind::LocalMoe || m_context.localModels.empty())
            return;
        if (m_context.localModels.contains(model) || (backend.models && backend.models->contains(model)))
            return;
        std::string known;
        for (const auto& name : m_context.localModels)
            known += (known.empty() ? "" : ", ") + name;
        m_sink.error(where,
                     "unknown local model \"" + model + "\"; the local-moe backend has " + known, node);
    }

    void checkModelCall(const std::string& pointer, const Node& node, bool needsModel, std::string_view why)
    {
        const auto& call = node.config.call;
        range(pointer, "timeout_ms", call.timeoutMs, node.id);
        range(pointer, "retries", call.retries, node.id);
        if (call.params)
            checkParams(childPointer(pointer, "params"), *call.params, node.id);
        if (!needsModel && !call.model)
            return;
        const Backend* backend = resolveBackend(pointer, node);
        const auto model = call.model ? call.model : (m_team.defaults ? m_team.defaults->model : std::nullopt);
        if (!model || model->empty()) {
            m_sink.error(childPointer(pointer, "model"), std::string(why) + " needs a model", node.id);
            return;
        }
        if (!backend)
            return;
        checkModelName(call.model ? childPointer(pointer, "model") : "/defaults/model", *model, *backend, node.id);
        if (call.fallbackModel)
            checkModelName(childPointer(pointer, "fallback_model"), *call.fallbackModel, *backend, node.id);
    }

    void checkNode(const std::string& pointer, const Node& node)
    {
        const auto& c = node.config;
        const auto& id = node.id;
        switch (node.kind) {
        case NodeKind::Router:
            if (!c.routerStrategy)
                m_sink.error(childPointer(pointer, "strategy"),
                             "a router needs a strategy: all, keyword, moe_gate or llm", id);
            range(pointer, "top_k", c.topK, id);
            range(pointer, "min_weight", c.minWeight, id);
            checkModelCall(pointer, node, c.routerStrategy == RouterStrategy::Llm, "an llm router");
            break;
        case NodeKind::Expert:
            range(pointer, "weight", c.weight, id);
            checkModelCall(pointer, node, true, "an expert");
            break;
        case NodeKind::Aggregator:
            if (!c.aggregatorStrategy)
                m_sink.error(childPointer(pointer, "strategy"),
                             "an aggregator needs a strategy: majority, weighted, best_confidence, first, concat or "
                             "synthesize",
                             id);
            range(pointer, "quorum", c.quorum, id);
            range(pointer, "min_confidence", c.minConfidence, id);
            range(pointer, "deadline_ms", c.deadlineMs, id);
            checkModelCall(pointer, node, c.aggregatorStrategy == AggregatorStrategy::Synthesize,
                           "a synthesize aggregator");
            break;
        case NodeKind::Coordinator:
            if (!c.mode)
                m_sink.error(childPointer(pointer, "mode"),
                             "a coordinator needs a mode: round_robin, debate, decompose or cascade", id);
            range(pointer, "max_rounds", c.maxRounds, id);
            range(pointer, "consensus", c.consensus, id);
            range(pointer, "threshold", c.threshold, id);
            checkModelCall(pointer, node, c.mode == CoordinatorMode::Decompose, "a decompose coordinator");
            break;
        case NodeKind::Input:
        case NodeKind::Output:
            break;
        }
        unknownKeys(pointer, node.extra, kindWithArticle(node.kind) + " node", id);
    }

    const Team& m_team;
    const ValidationContext& m_context;
    ProblemSink& m_sink;
};

} // namespace

void checkFields(const Team& team, const ValidationContext& context, ProblemSink& sink)
{
    FieldChecker(team, context, sink).run();
}

} // namespace conclave::checks
