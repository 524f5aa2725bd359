// checkFields, and FieldChecker's checks of the team, its defaults, budget
// and nodes (their model calls), and of unknown keys; BackendChecks.cpp has
// those of backends.
#include "conclave/validate/FieldChecks.h"

#include "conclave/model/RouterStrategies.h"
#include "conclave/util/AsciiText.h"
#include "conclave/validate/FieldChecker.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace conclave::checks {

namespace {

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.ends_with(suffix);
}
bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

// Whether a node's kind and settings make it call a model.
bool needsModel(const Node& node)
{
    return node.callsModel();
}

} // namespace

const std::string kSecretMessage =
    "a literal secret is not allowed in a team file; name an environment variable in api_key_env instead";

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

// "token" must end the key: max_tokens or tokenizer are not secrets, access_token and bearer_token are.
bool isSecretKey(std::string_view key)
{
    const auto k = toLowerAscii(key);
    return k == "authorization" || endsWith(k, "api_key") || endsWith(k, "api-key") || endsWith(k, "apikey") ||
           endsWith(k, "token") || contains(k, "secret") || contains(k, "password");
}

void FieldChecker::run()
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

void FieldChecker::unknownKeys(const std::string& pointer, const nlohmann::json& extra, std::string_view owner,
                               const std::optional<NodeId>& node, std::optional<size_t> edge)
{
    for (const auto& [key, value] : extra.items()) {
        if (isSecretKey(key)) {
            m_sink.error(childPointer(pointer, key), kSecretMessage, node, edge);
            continue;
        }
        m_sink.warning(childPointer(pointer, key), "unknown key for " + std::string(owner) + "; it is kept as is", node,
                       edge);
        findNestedSecrets(childPointer(pointer, key), value, node, edge);
    }
}

void FieldChecker::findNestedSecrets(const std::string& pointer, const nlohmann::json& value,
                                     const std::optional<NodeId>& node, std::optional<size_t> edge)
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

void FieldChecker::checkParams(const std::string& pointer, const ModelParams& params, const std::optional<NodeId>& node)
{
    range(pointer, "temperature", params.temperature, node);
    range(pointer, "max_tokens", params.maxTokens, node);
    range(pointer, "top_p", params.topP, node);
    unknownKeys(pointer, params.extra, "params", node);
}

void FieldChecker::checkDefaults(const Defaults& d)
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
void FieldChecker::checkDefaultModel(const std::string& model)
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

void FieldChecker::checkBudget(const Budget& b)
{
    range("/budget", "max_cost_usd", b.maxCostUsd);
    range("/budget", "max_tokens", b.maxTokens);
    range("/budget", "max_wall_ms", b.maxWallMs);
    unknownKeys("/budget", b.extra, "a budget");
}

// The backend calls go to when a node names `own` (or nothing): that one, the
// team default, or the only one; null when it cannot be told.
const Backend* FieldChecker::backendOf(const std::optional<BackendName>& own) const
{
    const auto& name = own ? own : (m_team.defaults ? m_team.defaults->backend : std::optional<BackendName>{});
    if (name) {
        const auto it = m_team.backends.find(*name);
        return it != m_team.backends.end() ? &it->second : nullptr;
    }
    return m_team.backends.size() == 1 ? &m_team.backends.begin()->second : nullptr;
}

// The backend a node's calls go to, saying why when there is none.
const Backend* FieldChecker::resolveBackend(const std::string& pointer, const Node& node)
{
    if (const Backend* backend = backendOf(node.config.call.backend))
        return backend;
    if (node.config.call.backend) {
        m_sink.error(childPointer(pointer, "backend"), "unknown backend \"" + node.config.call.backend->str() + "\"",
                     node.id);
        return nullptr;
    }
    if (m_team.defaults && m_team.defaults->backend)
        return nullptr; // an unknown default backend is reported once, at /defaults/backend
    if (m_team.backends.empty())
        m_sink.error(pointer, "\"" + node.id.str() + "\" calls a model but the team has no backends", node.id);
    else
        m_sink.error(childPointer(pointer, "backend"), "the team has several backends; set backend here or in defaults",
                     node.id);
    return nullptr;
}

// Without a catalog of local models, every name is taken on trust; openai models always are.
// So are those of a backend whose models file cannot be read (that is reported once, at models_file).
bool FieldChecker::knowsModel(const Backend& backend, const std::string& model) const
{
    if (backend.kind != BackendKind::LocalMoe || m_context.localModels.empty() ||
        m_context.localModels.contains(model) || (backend.models && backend.models->contains(model)))
        return true;
    if (!backend.modelsFile)
        return false;
    const auto file = m_fileModels.find(&backend);
    return file == m_fileModels.end() || file->second.contains(model);
}

void FieldChecker::checkModelName(const std::string& where, const std::string& model, const Backend& backend,
                                  const NodeId& node)
{
    if (!knowsModel(backend, model))
        reportUnknownModel(where, model, node);
}

void FieldChecker::reportUnknownModel(const std::string& where, const std::string& model,
                                      const std::optional<NodeId>& node)
{
    std::string known;
    for (const auto& name : m_context.localModels)
        known += (known.empty() ? "" : ", ") + name;
    m_sink.error(where, "unknown local model \"" + model + "\"; the local-moe backend has " + known, node);
}

void FieldChecker::checkModelCall(const std::string& pointer, const Node& node, std::string_view why)
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

void FieldChecker::checkRouter(const std::string& pointer, const Node& node)
{
    const auto& c = node.config;
    if (!c.routerStrategy)
        m_sink.error(childPointer(pointer, "strategy"),
                     "a router needs a strategy: " + RouterStrategies::namesInWords(), node.id);
    // Types were checked by the reader; ranges and spellings are checked wherever a field is set.
    for (const RouterField* field : RouterStrategies::fields()) {
        std::visit(
            [&](auto member) {
                const auto& value = c.*member;
                if constexpr (std::is_arithmetic_v<std::decay_t<decltype(*value)>>)
                    range(pointer, field->key, value, field->rule, node.id);
            },
            field->slot);
        const auto text = RouterStrategies::text(*field, c);
        if (field->kind == FieldKind::Enum && text &&
            std::find(field->values.begin(), field->values.end(), *text) == field->values.end())
            m_sink.error(childPointer(pointer, field->key),
                         "expected " + std::string(field->rule.expected) + ", got \"" + *text + "\"", node.id);
    }
    const std::string why =
        c.routerStrategy ? RouterStrategies::of(*c.routerStrategy).routerPhrase() : std::string("a router");
    checkModelCall(pointer, node, why);
}

void FieldChecker::checkNode(const std::string& pointer, const Node& node)
{
    const auto& c = node.config;
    const auto& id = node.id;
    switch (node.kind) {
    case NodeKind::Router:
        checkRouter(pointer, node);
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
        if (c.scorer && c.scorer->empty())
            m_sink.error(childPointer(pointer, "scorer"),
                         "expected the path of a scorer file (conclave train-scorer), got an empty string", id);
        else if (c.scorer && c.mode && *c.mode != CoordinatorMode::Cascade && *c.mode != CoordinatorMode::Adaptive)
            m_sink.error(childPointer(pointer, "scorer"),
                         "a scorer replaces stated confidence in modes cascade and adaptive; this coordinator's "
                         "mode is " + std::string(toString(*c.mode)),
                         id);
        checkModelCall(pointer, node, "a decompose coordinator");
        break;
    case NodeKind::Input:
    case NodeKind::Output:
        break;
    }
    unknownKeys(pointer, node.extra, kindWithArticle(node.kind) + " node", id);
}

void checkFields(const Team& team, const ValidationContext& context, ProblemSink& sink)
{
    FieldChecker(team, context, sink).run();
}

} // namespace conclave::checks
