#include "conclave/validate/FieldChecks.h"

#include "conclave/util/AsciiText.h"

#include "conclave/io/ModelsFile.h"
#include "conclave/io/TeamFields.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <map>
#include <set>

namespace conclave::checks {

namespace {

const std::string kSecretMessage =
    "a literal secret is not allowed in a team file; name an environment variable in api_key_env instead";

// The value as the file spells it: integers without a fraction or exponent, other
// numbers in the shortest form that reads back to the same double.
std::string formatNumber(double value)
{
    constexpr double kExactIntegers = 9007199254740992.0; // 2^53
    if (std::isfinite(value) && value == std::trunc(value) && std::fabs(value) < kExactIntegers)
        return std::to_string(static_cast<int64_t>(value));
    std::array<char, 64> buffer{};
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    if (ec != std::errc())
        return "?";
    return std::string(buffer.data(), end);
}

std::string formatNumber(std::integral auto value)
{
    return std::to_string(value);
}

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.ends_with(suffix);
}
bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// A key of the team file that holds a secret. "token" must end the key: max_tokens
// or tokenizer are not secrets, access_token and bearer_token are.
bool isSecretKey(std::string_view key)
{
    const auto k = toLowerAscii(key);
    return k == "authorization" || endsWith(k, "api_key") || endsWith(k, "api-key") || endsWith(k, "apikey") ||
           endsWith(k, "token") || contains(k, "secret") || contains(k, "password");
}

// An HTTP header whose value is a credential.
bool isSecretHeader(std::string_view name)
{
    return isSecretKey(name) || contains(toLowerAscii(name), "token");
}

// [A-Za-z_][A-Za-z0-9_]*: the names a shell gives environment variables.
bool isEnvironmentVariableName(std::string_view name)
{
    const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    return !name.empty() && letter(name.front()) &&
           std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || digit(c); });
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
            checkBackend(name, backend);
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
        range(pointer, key, value, fieldRule(key), node);
    }

    // `key` checked against another key's rule (an array's index).
    template <class T>
    void range(const std::string& pointer, std::string_view key, const std::optional<T>& value, const FieldRule& rule,
               const std::optional<NodeId>& node = {})
    {
        if (!value)
            return;
        if (!rule.accepts(static_cast<double>(*value)))
            m_sink.error(childPointer(pointer, key),
                         "expected " + std::string(rule.expected) + ", got " + formatNumber(*value), node);
    }

    void unknownKeys(const std::string& pointer, const nlohmann::json& extra, std::string_view owner,
                     const std::optional<NodeId>& node = {}, std::optional<size_t> edge = {})
    {
        for (const auto& [key, value] : extra.items()) {
            if (isSecretKey(key)) {
                m_sink.error(childPointer(pointer, key), kSecretMessage, node, edge);
                continue;
            }
            m_sink.warning(childPointer(pointer, key), "unknown key for " + std::string(owner) + "; it is kept as is",
                           node, edge);
            findNestedSecrets(childPointer(pointer, key), value, node, edge);
        }
    }

    void findNestedSecrets(const std::string& pointer, const nlohmann::json& value, const std::optional<NodeId>& node,
                           std::optional<size_t> edge)
    {
        if (value.is_object()) {
            for (const auto& [key, child] : value.items()) {
                const auto where = childPointer(pointer, key);
                if (isSecretKey(key))
                    m_sink.error(where, kSecretMessage, node, edge);
                else
                    findNestedSecrets(where, child, node, edge);
            }
        } else if (value.is_array()) {
            for (size_t i = 0; i < value.size(); ++i)
                findNestedSecrets(childPointer(pointer, i), value[i], node, edge);
        }
    }

    void checkParams(const std::string& pointer, const ModelParams& params, const std::optional<NodeId>& node)
    {
        range(pointer, "temperature", params.temperature, node);
        range(pointer, "max_tokens", params.maxTokens, node);
        range(pointer, "top_p", params.topP, node);
        unknownKeys(pointer, params.extra, "params", node);
    }

    // False when the distribution is unusable, so that one cause gives one problem.
    bool checkDistribution(const std::string& pointer, const Distribution& d, bool tailIsSlower)
    {
        if (d.median < 0 || d.p95 < 0) {
            m_sink.error(pointer, "expected non-negative median and p95");
            return false;
        }
        if (tailIsSlower && d.p95 < d.median)
            m_sink.error(childPointer(pointer, "p95"), "p95 (" + formatNumber(d.p95) +
                                                           ") must not be below the median (" + formatNumber(d.median) +
                                                           ")");
        if (!tailIsSlower && d.p95 > d.median)
            m_sink.error(childPointer(pointer, "p95"), "p95 (" + formatNumber(d.p95) +
                                                           ") is the slow tail and must not exceed the median (" +
                                                           formatNumber(d.median) + ")");
        return true;
    }

    void checkPrice(const std::string& pointer, const Price& price)
    {
        if (price.input < 0 || price.output < 0)
            m_sink.error(pointer, "prices must not be negative");
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
        if (profile.tokensPerS &&
            checkDistribution(childPointer(pointer, "tokens_per_s"), *profile.tokensPerS, false)) {
            if (profile.tokensPerS->p95 <= 0)
                m_sink.error(childPointer(childPointer(pointer, "tokens_per_s"), "p95"),
                             "expected a positive speed, got " + formatNumber(profile.tokensPerS->p95));
        }
        if (profile.outputTokens)
            checkDistribution(childPointer(pointer, "output_tokens"), *profile.outputTokens, true);
        if (profile.pricePerMtok)
            checkPrice(childPointer(pointer, "price_per_mtok"), *profile.pricePerMtok);
        range(pointer, "context_tokens", profile.contextTokens);
        range(pointer, "failure_rate", profile.failureRate);
        range(pointer, "error_agreement", profile.errorAgreement);
        range(pointer, "difficulty_weight", profile.difficultyWeight);
        if (profile.confidence) {
            const auto at = childPointer(pointer, "confidence");
            for (const auto& [side, draw] : {std::pair{"right", profile.confidence->right},
                                             std::pair{"wrong", profile.confidence->wrong}}) {
                range(childPointer(at, side), "mean", std::optional(draw.mean));
                range(childPointer(at, side), "sd", std::optional(draw.sd));
            }
        }
        if (profile.synthesis) {
            const auto at = childPointer(pointer, "synthesis");
            const auto& table = profile.synthesis->pRightGivenRight;
            for (size_t k = 0; k < table.size(); ++k)
                range(childPointer(at, "p_right_given_right"), std::to_string(k), std::optional(table[k]),
                      fieldRule("p_right_given_right"));
            range(at, "self_answer", std::optional(profile.synthesis->selfAnswer));
        }
        range(pointer, "load_slope", profile.loadSlope);
        if (profile.fitted) {
            for (size_t i = 0; i < profile.fitted->size(); ++i) {
                const auto& field = (*profile.fitted)[i];
                if (!containsKey(teamObjectKeys(TeamObject::Profile), field) || field == "fitted" ||
                    field == "calibrated_from")
                    m_sink.error(childPointer(childPointer(pointer, "fitted"), i),
                                 "expected the name of a profile field the simulator uses, got \"" + field + "\"");
            }
        }
        if (profile.calibratedFrom) {
            for (size_t i = 0; i < profile.calibratedFrom->size(); ++i) {
                const auto& source = (*profile.calibratedFrom)[i];
                const auto at = childPointer(childPointer(pointer, "calibrated_from"), i);
                if (source.experiment.empty())
                    m_sink.error(childPointer(at, "experiment"), "expected an experiment id, got \"\"");
                range(at, "answers", std::optional(source.answers));
            }
        }
        if (profile.skillsCi) {
            for (const auto& [domain, ci] : *profile.skillsCi) {
                if (!(0 <= ci.first && ci.first <= ci.second && ci.second <= 1))
                    m_sink.error(childPointer(childPointer(pointer, "skills_ci"), domain),
                                 "expected [low, high] with 0 <= low <= high <= 1, got [" + formatNumber(ci.first) +
                                     ", " + formatNumber(ci.second) + "]");
            }
        }
        if (profile.trials) {
            const auto& rule = fieldRule("trials");
            for (const auto& [domain, count] : *profile.trials) {
                if (!rule.accepts(double(count)))
                    m_sink.error(childPointer(childPointer(pointer, "trials"), domain),
                                 "expected " + std::string(rule.expected) + ", got " + formatNumber(count));
            }
        }
        unknownKeys(pointer, profile.extra, "a model profile");
    }

    // The file is read here, so that a missing or bad one is a problem of the
    // team like any other; its problems are reported at models_file, each
    // naming the file and the place in it.
    void checkModelsFile(const BackendName& name, const std::string& pointer, const Backend& b)
    {
        const auto where = childPointer(pointer, "models_file");
        if (b.modelsFile->empty()) {
            m_sink.error(where, "expected the path of a models file, got \"\"");
            return;
        }
        const auto path = ModelsFile::resolve(*b.modelsFile, m_context.teamFolder);
        const auto report = [&](const Problem& p) {
            Problem shown = p;
            shown.severity = Severity::Error; // the severity is the whole problem's, not part of its text
            auto message = "models file of backend \"" + name.str() + "\": " + formatProblem(shown, path.string());
            if (p.isError())
                m_sink.error(where, std::move(message));
            else
                m_sink.warning(where, std::move(message));
        };
        auto loaded = ModelsFile::load(path);
        for (const auto& p : loaded.problems)
            report(p);
        if (!loaded.file)
            return; // its models are taken on trust: one cause, one problem
        ProblemSink inFile;
        FieldChecker fileChecker(m_team, m_context, inFile);
        std::set<std::string> names;
        for (const auto& [model, profile] : loaded.file->models()) {
            fileChecker.checkProfile(childPointer("/models", model), profile);
            names.insert(model);
        }
        for (const auto& p : inFile.take())
            report(p);
        m_fileModels[&b] = std::move(names);
    }

    void checkBackend(const BackendName& name, const Backend& b)
    {
        const auto pointer = childPointer("/backends", name.str());
        range(pointer, "seed", b.seed);
        range(pointer, "time_scale", b.timeScale);
        if (b.kind == BackendKind::LocalMoe) {
            range(pointer, "max_concurrency", b.maxConcurrency);
            range(pointer, "background_inflight", b.backgroundInflight);
        }
        if (b.models) {
            for (const auto& [model, profile] : *b.models)
                checkProfile(childPointer(childPointer(pointer, "models"), model), profile);
        }
        if (b.kind != BackendKind::OpenAi && b.modelsFile)
            checkModelsFile(name, pointer, b);
        if (b.kind == BackendKind::Recorded) {
            if (!b.experiments)
                m_sink.error(childPointer(pointer, "experiments"),
                             "a recorded backend needs experiments: the ids of the experiments whose calls it replays");
            else if (b.experiments->empty())
                m_sink.error(childPointer(pointer, "experiments"), "expected at least one experiment id");
            if (b.experiments) {
                for (size_t i = 0; i < b.experiments->size(); ++i) {
                    if ((*b.experiments)[i].empty())
                        m_sink.error(childPointer(childPointer(pointer, "experiments"), std::to_string(i)),
                                     "expected an experiment id, got \"\"");
                }
            }
            if (b.db && b.db->empty())
                m_sink.error(childPointer(pointer, "db"), "expected the path of a run store, got \"\"");
            if (b.onMissing && *b.onMissing != "fail" && *b.onMissing != "simulate")
                m_sink.error(childPointer(pointer, "on_missing"),
                             "expected fail or simulate, got \"" + *b.onMissing + "\"");
            range(pointer, "max_concurrency", b.maxConcurrency);
        }
        if (b.kind == BackendKind::OpenAi) {
            if (!b.baseUrl || b.baseUrl->empty())
                m_sink.error(childPointer(pointer, "base_url"), "an openai backend needs a base_url");
            else if (!b.baseUrl->starts_with("http://") && !b.baseUrl->starts_with("https://"))
                m_sink.error(childPointer(pointer, "base_url"),
                             "expected an http:// or https:// URL, got \"" + *b.baseUrl + "\"");
            // Never echo the value: it may be a key pasted where its variable's name belongs.
            if (b.apiKeyEnv && !isEnvironmentVariableName(*b.apiKeyEnv))
                m_sink.error(childPointer(pointer, "api_key_env"), "expected the name of an environment variable");
            if (b.maxTokensParam && *b.maxTokensParam != "max_tokens" && *b.maxTokensParam != "max_completion_tokens")
                m_sink.error(childPointer(pointer, "max_tokens_param"),
                             "expected max_tokens or max_completion_tokens, got \"" + *b.maxTokensParam + "\"");
            range(pointer, "max_concurrency", b.maxConcurrency);
            range(pointer, "requests_per_minute", b.requestsPerMinute);
            range(pointer, "connect_timeout_ms", b.connectTimeoutMs);
            if (b.headers) {
                for (const auto& [header, value] : *b.headers) {
                    if (isSecretHeader(header) || toLowerAscii(value).starts_with("bearer "))
                        m_sink.error(childPointer(childPointer(pointer, "headers"), header), kSecretMessage);
                }
            }
            if (b.prices) {
                for (const auto& [model, price] : *b.prices)
                    checkPrice(childPointer(childPointer(pointer, "prices"), model), price);
            }
        }
        unknownKeys(pointer, b.extra, withArticle(std::string(toString(b.kind)) + " backend"));
    }

    void checkDefaults(const Defaults& d)
    {
        if (d.backend && !m_team.backends.contains(*d.backend))
            m_sink.error("/defaults/backend", "unknown backend \"" + d.backend->str() + "\"");
        range("/defaults", "timeout_ms", d.timeoutMs);
        range("/defaults", "retries", d.retries);
        if (d.params)
            checkParams("/defaults/params", *d.params, {});
        if (d.model && !d.model->empty())
            checkDefaultModel(*d.model);
        unknownKeys("/defaults", d.extra, "defaults");
    }

    // A wrong default model is one mistake, said once, however many nodes use it. It
    // goes to the backends of those nodes, or to the default backend when none does.
    void checkDefaultModel(const std::string& model)
    {
        std::vector<const Backend*> backends;
        for (const auto& node : m_team.nodes) {
            if (needsModel(node) && !node.config.call.model)
                backends.push_back(backendOf(node.config.call.backend));
        }
        if (backends.empty())
            backends.push_back(backendOf(std::nullopt));
        for (const Backend* backend : backends) {
            if (backend && !knowsModel(*backend, model)) {
                reportUnknownModel("/defaults/model", model, std::nullopt);
                return;
            }
        }
    }

    void checkBudget(const Budget& b)
    {
        range("/budget", "max_cost_usd", b.maxCostUsd);
        range("/budget", "max_tokens", b.maxTokens);
        range("/budget", "max_wall_ms", b.maxWallMs);
        unknownKeys("/budget", b.extra, "a budget");
    }

    // Whether a node's kind and settings make it call a model.
    static bool needsModel(const Node& node) { return node.callsModel(); }

    // The backend calls go to when a node names `own` (or nothing): that one, the
    // team default, or the only one; null when it cannot be told.
    const Backend* backendOf(const std::optional<BackendName>& own) const
    {
        const auto& name = own ? own : (m_team.defaults ? m_team.defaults->backend : std::optional<BackendName>{});
        if (name) {
            const auto it = m_team.backends.find(*name);
            return it != m_team.backends.end() ? &it->second : nullptr;
        }
        return m_team.backends.size() == 1 ? &m_team.backends.begin()->second : nullptr;
    }

    // The backend a node's calls go to, saying why when there is none.
    const Backend* resolveBackend(const std::string& pointer, const Node& node)
    {
        if (const Backend* backend = backendOf(node.config.call.backend))
            return backend;
        if (node.config.call.backend) {
            m_sink.error(childPointer(pointer, "backend"),
                         "unknown backend \"" + node.config.call.backend->str() + "\"", node.id);
            return nullptr;
        }
        if (m_team.defaults && m_team.defaults->backend)
            return nullptr; // an unknown default backend is reported once, at /defaults/backend
        if (m_team.backends.empty())
            m_sink.error(pointer, "\"" + node.id.str() + "\" calls a model but the team has no backends", node.id);
        else
            m_sink.error(childPointer(pointer, "backend"),
                         "the team has several backends; set backend here or in defaults", node.id);
        return nullptr;
    }

    // Without a catalog of local models, every name is taken on trust; openai models always are.
    // So are those of a backend whose models file cannot be read (that is reported once, at models_file).
    bool knowsModel(const Backend& backend, const std::string& model) const
    {
        if (backend.kind != BackendKind::LocalMoe || m_context.localModels.empty() ||
            m_context.localModels.contains(model) || (backend.models && backend.models->contains(model)))
            return true;
        if (!backend.modelsFile)
            return false;
        const auto file = m_fileModels.find(&backend);
        return file == m_fileModels.end() || file->second.contains(model);
    }

    void checkModelName(const std::string& where, const std::string& model, const Backend& backend, const NodeId& node)
    {
        if (!knowsModel(backend, model))
            reportUnknownModel(where, model, node);
    }

    void reportUnknownModel(const std::string& where, const std::string& model, const std::optional<NodeId>& node)
    {
        std::string known;
        for (const auto& name : m_context.localModels)
            known += (known.empty() ? "" : ", ") + name;
        m_sink.error(where, "unknown local model \"" + model + "\"; the local-moe backend has " + known, node);
    }

    void checkModelCall(const std::string& pointer, const Node& node, std::string_view why)
    {
        const auto& call = node.config.call;
        range(pointer, "timeout_ms", call.timeoutMs, node.id);
        range(pointer, "retries", call.retries, node.id);
        if (call.params)
            checkParams(childPointer(pointer, "params"), *call.params, node.id);
        if (!needsModel(node) && !call.model)
            return;
        const Backend* backend = resolveBackend(pointer, node);
        const auto model = call.model ? call.model : (m_team.defaults ? m_team.defaults->model : std::nullopt);
        if (!model || model->empty()) {
            m_sink.error(childPointer(pointer, "model"), std::string(why) + " needs a model", node.id);
            return;
        }
        if (!backend)
            return;
        // A model taken from the defaults is checked once, with the defaults.
        if (call.model)
            checkModelName(childPointer(pointer, "model"), *model, *backend, node.id);
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
            checkModelCall(pointer, node, "an llm router");
            break;
        case NodeKind::Expert:
            range(pointer, "weight", c.weight, id);
            checkModelCall(pointer, node, "an expert");
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
            range(pointer, "agree_fraction", c.agreeFraction, id);
            if ((c.skipWhenAgree || c.agreeFraction) && c.aggregatorStrategy &&
                *c.aggregatorStrategy != AggregatorStrategy::Synthesize)
                m_sink.warning(childPointer(pointer, c.skipWhenAgree ? "skip_when_agree" : "agree_fraction"),
                               "only a synthesize aggregator can skip its model; this one is " +
                                   std::string(toString(*c.aggregatorStrategy)),
                               id);
            else if (c.agreeFraction && !c.skipWhenAgree.value_or(false))
                m_sink.warning(childPointer(pointer, "agree_fraction"),
                               "agree_fraction does nothing without \"skip_when_agree\": true", id);
            checkModelCall(pointer, node, "a synthesize aggregator");
            break;
        case NodeKind::Coordinator:
            if (!c.mode)
                m_sink.error(childPointer(pointer, "mode"),
                             "a coordinator needs a mode: round_robin, debate, decompose, cascade or adaptive", id);
            range(pointer, "max_rounds", c.maxRounds, id);
            range(pointer, "consensus", c.consensus, id);
            range(pointer, "threshold", c.threshold, id);
            range(pointer, "initial", c.initial, id);
            if (c.initial && c.mode && *c.mode != CoordinatorMode::Adaptive)
                m_sink.warning(childPointer(pointer, "initial"),
                               "initial is read only in mode adaptive; this coordinator's mode is " +
                                   std::string(toString(*c.mode)),
                               id);
            range(pointer, "max_subtasks", c.maxSubtasks, id);
            if (c.maxSubtasks && c.mode && *c.mode != CoordinatorMode::Decompose)
                m_sink.warning(childPointer(pointer, "max_subtasks"),
                               "max_subtasks is read only in mode decompose; this coordinator's mode is " +
                                   std::string(toString(*c.mode)),
                               id);
            checkModelCall(pointer, node, "a decompose coordinator");
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
    std::map<const Backend*, std::set<std::string>> m_fileModels; // the models of each models file read
};

} // namespace

void checkFields(const Team& team, const ValidationContext& context, ProblemSink& sink)
{
    FieldChecker(team, context, sink).run();
}

} // namespace conclave::checks
