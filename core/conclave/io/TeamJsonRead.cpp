#include "conclave/io/JsonFieldReader.h"
#include "conclave/io/JsonText.h"
#include "conclave/io/ProfileFieldsRead.h"
#include "conclave/io/TeamFields.h"
#include "conclave/io/TeamJson.h"
#include "conclave/model/RouterStrategies.h"

namespace conclave {

namespace {

using nlohmann::json;

std::optional<int64_t> readInteger(JsonFieldReader& r, std::string_view key, bool required = false)
{
    return r.integer(key, fieldRule(key).expected, required);
}

std::optional<double> readNumber(JsonFieldReader& r, std::string_view key)
{
    return r.number(key, fieldRule(key).expected);
}

std::optional<ModelParams> readParams(JsonFieldReader& parent, std::string_view key, std::vector<Problem>& problems)
{
    const auto* value = parent.object(key);
    if (!value)
        return std::nullopt;
    JsonFieldReader r(*value, parent.pointerTo(key), problems);
    ModelParams params;
    params.temperature = readNumber(r, "temperature");
    params.maxTokens = readInteger(r, "max_tokens");
    params.topP = readNumber(r, "top_p");
    params.stop = r.stringList("stop");
    params.extra = r.leftovers();
    return params;
}

std::optional<Distribution> readDistribution(JsonFieldReader& parent, std::string_view key,
                                             std::vector<Problem>& problems)
{
    const auto* value = parent.object(key);
    if (!value)
        return std::nullopt;
    JsonFieldReader r(*value, parent.pointerTo(key), problems);
    const auto median = r.number("median", "a non-negative number");
    const auto p95 = r.number("p95", "a non-negative number");
    if (!value->contains("median"))
        r.fail("median", "missing; expected a non-negative number");
    if (!value->contains("p95"))
        r.fail("p95", "missing; expected a non-negative number");
    if (!r.leftovers().empty())
        r.fail(r.leftovers().begin().key(), "unknown key; a distribution has only median and p95");
    if (!median || !p95)
        return std::nullopt;
    return Distribution{*median, *p95};
}

std::optional<Price> readPrice(const json& value, const std::string& pointer, std::vector<Problem>& problems)
{
    JsonFieldReader r(value, pointer, problems);
    if (!value.is_object()) {
        Problem p;
        p.pointer = pointer;
        p.message = "expected an object with input and output prices, got " + describeJsonValue(value);
        problems.push_back(std::move(p));
        return std::nullopt;
    }
    const auto input = r.number("input", "a non-negative number");
    const auto output = r.number("output", "a non-negative number");
    if (!value.contains("input"))
        r.fail("input", "missing; expected a non-negative number (USD per million tokens)");
    if (!value.contains("output"))
        r.fail("output", "missing; expected a non-negative number (USD per million tokens)");
    if (!r.leftovers().empty())
        r.fail(r.leftovers().begin().key(), "unknown key; a price has only input and output");
    if (!input || !output)
        return std::nullopt;
    return Price{*input, *output};
}

// {domain: [low, high]}: the shape only; the validator checks the range.
std::optional<std::map<std::string, std::pair<double, double>>> readIntervals(JsonFieldReader& r, std::string_view key)
{
    const auto* value = r.object(key);
    if (!value)
        return std::nullopt;
    std::map<std::string, std::pair<double, double>> out;
    for (const auto& [domain, interval] : value->items()) {
        if (!interval.is_array() || interval.size() != 2 || !interval[0].is_number() || !interval[1].is_number()) {
            const auto shown =
                interval.is_array() && interval.dump().size() <= 40 ? interval.dump() : describeJsonValue(interval);
            r.failAt(childPointer(r.pointerTo(key), domain),
                     "expected [low, high] (two numbers from 0 to 1), got " + shown);
            continue;
        }
        out.emplace(domain, std::pair{interval[0].get<double>(), interval[1].get<double>()});
    }
    return out;
}

// {domain: count}.
std::optional<std::map<std::string, int64_t>> readCounts(JsonFieldReader& parent, std::string_view key,
                                                         std::vector<Problem>& problems)
{
    const auto* value = parent.object(key);
    if (!value)
        return std::nullopt;
    JsonFieldReader r(*value, parent.pointerTo(key), problems);
    std::map<std::string, int64_t> out;
    for (const auto& [domain, count] : value->items()) {
        if (const auto n = r.integer(domain, fieldRule(key).expected))
            out.emplace(domain, *n);
    }
    return out;
}

ModelCall readModelCall(JsonFieldReader& r, std::vector<Problem>& problems)
{
    ModelCall call;
    if (auto backend = r.string("backend"))
        call.backend = BackendName(*backend);
    call.model = r.string("model");
    call.fallbackModel = r.string("fallback_model");
    call.system = r.string("system");
    call.prompt = r.string("prompt");
    call.params = readParams(r, "params", problems);
    call.timeoutMs = readInteger(r, "timeout_ms");
    call.retries = readInteger(r, "retries");
    return call;
}

std::optional<RouteTable> readRoutes(JsonFieldReader& r, std::string_view key)
{
    const auto* value = r.object(key);
    if (!value)
        return std::nullopt;
    RouteTable routes;
    for (const auto& [label, patterns] : value->items()) {
        const std::string where = childPointer(r.pointerTo(key), label);
        if (!patterns.is_array()) {
            r.failAt(where, "expected an array of keywords, got " + describeJsonValue(patterns));
            return std::nullopt;
        }
        std::vector<std::string> list;
        for (size_t i = 0; i < patterns.size(); ++i) {
            if (!patterns[i].is_string()) {
                r.failAt(childPointer(where, i), "expected a keyword string, got " + describeJsonValue(patterns[i]));
                return std::nullopt;
            }
            list.push_back(patterns[i].get<std::string>());
        }
        routes.emplace(label, std::move(list));
    }
    return routes;
}

// A field of a router strategy, read into its slot by the slot's type (RouterStrategies).
void readRouterField(JsonFieldReader& r, const RouterField& field, NodeConfig& config)
{
    std::visit(
        [&](auto member) {
            auto& value = config.*member;
            using T = std::decay_t<decltype(*value)>;
            if constexpr (std::is_same_v<T, RouteTable>)
                value = readRoutes(r, field.key);
            else if constexpr (std::is_same_v<T, std::string>)
                value = r.string(field.key);
            else if constexpr (std::is_same_v<T, int64_t>)
                value = r.integer(field.key, field.rule.expected);
            else
                value = r.number(field.key, field.rule.expected);
        },
        field.slot);
}

std::optional<Position> readPosition(JsonFieldReader& r)
{
    const auto* value = r.take("pos");
    if (!value)
        return std::nullopt;
    if (!value->is_array() || value->size() != 2 || !(*value)[0].is_number() || !(*value)[1].is_number()) {
        const auto shown = value->is_array() && value->dump().size() <= 40 ? value->dump() : describeJsonValue(*value);
        r.fail("pos", "expected [x, y] (two numbers), got " + shown);
        return std::nullopt;
    }
    return Position{(*value)[0].get<double>(), (*value)[1].get<double>()};
}

std::optional<Node> readNode(const json& value, const std::string& pointer, std::vector<Problem>& problems)
{
    if (!value.is_object()) {
        Problem p;
        p.pointer = pointer;
        p.message = "expected a node object, got " + describeJsonValue(value);
        problems.push_back(std::move(p));
        return std::nullopt;
    }
    const size_t before = problems.size();
    JsonFieldReader r(value, pointer, problems);
    Node node;
    if (const auto id = r.string("id", true)) {
        node.id = NodeId(*id);
        r.setNode(node.id);
    }
    const auto kind = r.enumeration<NodeKind>("kind", true);
    if (!kind)
        return std::nullopt;
    node.kind = *kind;
    auto& c = node.config;
    c.label = r.string("label");
    switch (node.kind) {
    case NodeKind::Router:
        c.routerStrategy = r.enumeration<RouterStrategy>("strategy");
        for (const RouterField* field : RouterStrategies::fields())
            readRouterField(r, *field, c);
        c.call = readModelCall(r, problems);
        break;
    case NodeKind::Expert:
        c.call = readModelCall(r, problems);
        c.weight = readNumber(r, "weight");
        break;
    case NodeKind::Aggregator:
        c.aggregatorStrategy = r.enumeration<AggregatorStrategy>("strategy");
        c.quorum = readInteger(r, "quorum");
        c.minConfidence = readNumber(r, "min_confidence");
        c.deadlineMs = readInteger(r, "deadline_ms");
        c.skipWhenAgree = r.boolean("skip_when_agree");
        c.agreeFraction = readNumber(r, "agree_fraction");
        c.call = readModelCall(r, problems);
        break;
    case NodeKind::Coordinator:
        c.mode = r.enumeration<CoordinatorMode>("mode");
        c.maxRounds = readInteger(r, "max_rounds");
        c.consensus = readNumber(r, "consensus");
        c.threshold = readNumber(r, "threshold");
        c.initial = readInteger(r, "initial");
        c.maxSubtasks = readInteger(r, "max_subtasks");
        c.scorer = r.string("scorer");
        c.call = readModelCall(r, problems);
        break;
    case NodeKind::Input:
    case NodeKind::Output:
        break;
    }
    node.pos = readPosition(r);
    node.extra = r.leftovers();
    if (problems.size() != before)
        return std::nullopt;
    return node;
}

std::optional<Edge> readEdge(const json& value, const std::string& pointer, std::vector<Problem>& problems)
{
    if (!value.is_object()) {
        Problem p;
        p.pointer = pointer;
        p.message = "expected an edge object, got " + describeJsonValue(value);
        problems.push_back(std::move(p));
        return std::nullopt;
    }
    const size_t before = problems.size();
    JsonFieldReader r(value, pointer, problems);
    Edge edge;
    edge.from = NodeId(r.string("from", true).value_or(""));
    edge.to = NodeId(r.string("to", true).value_or(""));
    edge.when = r.string("when");
    if (const auto* role = r.take("role")) {
        if (role->is_string() && role->get<std::string>() == "member")
            edge.role = EdgeRole::Member;
        else
            r.expected("role", "\"member\"", *role);
    }
    edge.extra = r.leftovers();
    if (problems.size() != before)
        return std::nullopt;
    return edge;
}

std::optional<std::map<std::string, Price>> readPrices(JsonFieldReader& r, std::vector<Problem>& problems)
{
    const auto* value = r.object("prices");
    if (!value)
        return std::nullopt;
    std::map<std::string, Price> prices;
    for (const auto& [model, price] : value->items()) {
        if (auto p = readPrice(price, childPointer(r.pointerTo("prices"), model), problems))
            prices.emplace(model, *p);
    }
    return prices;
}

std::optional<Backend> readBackend(const json& value, const std::string& pointer, std::vector<Problem>& problems)
{
    if (!value.is_object()) {
        Problem p;
        p.pointer = pointer;
        p.message = "expected a backend object, got " + describeJsonValue(value);
        problems.push_back(std::move(p));
        return std::nullopt;
    }
    const size_t before = problems.size();
    JsonFieldReader r(value, pointer, problems);
    const auto kind = r.enumeration<BackendKind>("kind", true);
    if (!kind)
        return std::nullopt;
    Backend b;
    b.kind = *kind;
    if (b.kind == BackendKind::LocalMoe) {
        b.seed = readInteger(r, "seed");
        b.timeScale = readNumber(r, "time_scale");
        b.maxConcurrency = readInteger(r, "max_concurrency");
        b.backgroundInflight = readInteger(r, "background_inflight");
        if (const auto* models = r.object("models")) {
            std::map<std::string, ModelProfile> profiles;
            for (const auto& [name, profile] : models->items()) {
                if (auto p = profileFromJson(profile, childPointer(r.pointerTo("models"), name), problems))
                    profiles.emplace(name, std::move(*p));
            }
            b.models = std::move(profiles);
        }
        b.modelsFile = r.string("models_file");
    } else if (b.kind == BackendKind::Recorded) {
        b.experiments = r.stringList("experiments");
        b.db = r.string("db");
        b.excludeDesigns = r.stringList("exclude_designs", "an array of design names", "a design name");
        b.onMissing = r.string("on_missing");
        b.maxConcurrency = readInteger(r, "max_concurrency");
        // on_missing "simulate": the local-moe fields of the simulator it falls back on.
        b.seed = readInteger(r, "seed");
        if (const auto* models = r.object("models")) {
            std::map<std::string, ModelProfile> profiles;
            for (const auto& [name, profile] : models->items()) {
                if (auto p = profileFromJson(profile, childPointer(r.pointerTo("models"), name), problems))
                    profiles.emplace(name, std::move(*p));
            }
            b.models = std::move(profiles);
        }
        b.modelsFile = r.string("models_file");
    } else {
        b.baseUrl = r.string("base_url");
        b.apiKeyEnv = r.string("api_key_env");
        b.maxConcurrency = readInteger(r, "max_concurrency");
        b.requestsPerMinute = readInteger(r, "requests_per_minute");
        b.stream = r.boolean("stream");
        b.maxTokensParam = r.string("max_tokens_param");
        b.caFile = r.string("ca_file");
        b.connectTimeoutMs = readInteger(r, "connect_timeout_ms");
        b.headers = r.stringMap("headers");
        b.prices = readPrices(r, problems);
        // Profiles whose skills the gate gives this endpoint's models (no simulator is made from them).
        b.modelsFile = r.string("models_file");
    }
    b.extra = r.leftovers();
    if (problems.size() != before)
        return std::nullopt;
    return b;
}

std::optional<Defaults> readDefaults(JsonFieldReader& parent, std::vector<Problem>& problems)
{
    const auto* value = parent.object("defaults");
    if (!value)
        return std::nullopt;
    JsonFieldReader r(*value, parent.pointerTo("defaults"), problems);
    Defaults d;
    if (auto backend = r.string("backend"))
        d.backend = BackendName(*backend);
    d.model = r.string("model");
    d.timeoutMs = readInteger(r, "timeout_ms");
    d.retries = readInteger(r, "retries");
    d.params = readParams(r, "params", problems);
    d.extra = r.leftovers();
    return d;
}

std::optional<Budget> readBudget(JsonFieldReader& parent, std::vector<Problem>& problems)
{
    const auto* value = parent.object("budget");
    if (!value)
        return std::nullopt;
    JsonFieldReader r(*value, parent.pointerTo("budget"), problems);
    Budget b;
    b.maxCostUsd = readNumber(r, "max_cost_usd");
    b.maxTokens = readInteger(r, "max_tokens");
    b.maxWallMs = readInteger(r, "max_wall_ms");
    b.extra = r.leftovers();
    return b;
}

// Reads and checks the format version; false means the rest must not be read.
bool readVersion(JsonFieldReader& r)
{
    const auto* value = r.take("conclave");
    if (!value) {
        r.fail("conclave", "missing format version; a team file starts with \"conclave\": 1");
        return false;
    }
    if (!value->is_number_integer() || value->get<int64_t>() < 1) {
        r.expected("conclave", "format version 1 to " + std::to_string(kTeamFormatVersion), *value);
        return false;
    }
    const auto version = value->get<int64_t>();
    if (version > kTeamFormatVersion) {
        r.fail("conclave", "format version " + std::to_string(version) + " is newer than this Conclave understands (" +
                               std::to_string(kTeamFormatVersion) + "); upgrade Conclave to open this team");
        return false;
    }
    // Versions 2 and 3 only added fields: a version-1 file reads as it always did. Nothing keeps the version read:
    // a team is written at the version its fields need (formatVersionNeeded).
    return true;
}

} // namespace

std::optional<ModelProfile> profileFromJson(const json& value, const std::string& pointer,
                                            std::vector<Problem>& problems)
{
    if (!value.is_object()) {
        Problem p;
        p.pointer = pointer;
        p.message = "expected a model profile object, got " + describeJsonValue(value);
        problems.push_back(std::move(p));
        return std::nullopt;
    }
    const size_t before = problems.size();
    JsonFieldReader r(value, pointer, problems);
    ModelProfile profile;
    if (const auto* skills = r.object("skills")) {
        std::map<std::string, double> map;
        for (const auto& [domain, skill] : skills->items()) {
            if (!skill.is_number()) {
                Problem p;
                p.pointer = childPointer(r.pointerTo("skills"), domain);
                p.message = "expected a number from 0 to 1, got " + describeJsonValue(skill);
                problems.push_back(std::move(p));
                continue;
            }
            map.emplace(domain, skill.get<double>());
        }
        profile.skills = std::move(map);
    }
    profile.ttftMs = readDistribution(r, "ttft_ms", problems);
    profile.tokensPerS = readDistribution(r, "tokens_per_s", problems);
    profile.outputTokens = readDistribution(r, "output_tokens", problems);
    if (const auto* price = r.object("price_per_mtok"))
        profile.pricePerMtok = readPrice(*price, r.pointerTo("price_per_mtok"), problems);
    profile.contextTokens = readInteger(r, "context_tokens");
    profile.failureRate = readNumber(r, "failure_rate");
    profile.errorAgreement = readNumber(r, "error_agreement");
    profile.difficultyWeight = readNumber(r, "difficulty_weight");
    profile.confidence = readConfidence(r, problems);
    profile.synthesis = readSynthesis(r, problems);
    profile.loadSlope = readNumber(r, "load_slope");
    profile.retryRepeat = readNumber(r, "retry_repeat");
    profile.conformity = readNumber(r, "conformity");
    profile.repeatAgreement = readNumber(r, "repeat_agreement");
    profile.skillsCi = readIntervals(r, "skills_ci");
    profile.trials = readCounts(r, "trials", problems);
    profile.fitted = r.stringList("fitted");
    profile.calibratedFrom = readCalibratedFrom(r, problems);
    profile.extra = r.leftovers();
    if (problems.size() != before)
        return std::nullopt;
    return profile;
}

TeamLoadResult teamFromJson(const json& document)
{
    TeamLoadResult result;
    auto& problems = result.problems;
    if (!document.is_object()) {
        Problem p;
        p.message = "expected a team object, got " + describeJsonValue(document);
        problems.push_back(std::move(p));
        return result;
    }
    JsonFieldReader r(document, "", problems);
    Team team;
    if (!readVersion(r))
        return result;
    team.name = r.string("name", true).value_or("");
    team.description = r.string("description");
    if (const auto* backends = r.object("backends")) {
        for (const auto& [name, value] : backends->items()) {
            if (auto backend = readBackend(value, childPointer("/backends", name), problems))
                team.backends.emplace(BackendName(name), std::move(*backend));
        }
    }
    team.defaults = readDefaults(r, problems);
    team.budget = readBudget(r, problems);

    const auto* nodes = r.take("nodes");
    if (!nodes) {
        r.fail("nodes", "missing; expected an array of nodes");
    } else if (!nodes->is_array()) {
        r.expected("nodes", "an array of nodes", *nodes);
    } else {
        for (size_t i = 0; i < nodes->size(); ++i) {
            if (auto node = readNode((*nodes)[i], childPointer("/nodes", i), problems))
                team.nodes.push_back(std::move(*node));
        }
    }
    if (const auto* edges = r.take("edges")) {
        if (!edges->is_array()) {
            r.expected("edges", "an array of edges", *edges);
        } else {
            for (size_t i = 0; i < edges->size(); ++i) {
                if (auto edge = readEdge((*edges)[i], childPointer("/edges", i), problems))
                    team.edges.push_back(std::move(*edge));
            }
        }
    }
    team.extra = r.leftovers();
    if (!hasErrors(problems))
        result.team = std::move(team);
    return result;
}

TeamLoadResult teamFromJsonText(std::string_view text)
{
    auto parsed = parseJsonText(text);
    if (!parsed.value) {
        return TeamLoadResult{std::nullopt, std::move(parsed.problems)};
    }
    auto result = teamFromJson(*parsed.value);
    result.problems.insert(result.problems.begin(), parsed.problems.begin(), parsed.problems.end());
    return result;
}

} // namespace conclave
