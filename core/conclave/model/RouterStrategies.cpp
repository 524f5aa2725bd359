#include "conclave/model/RouterStrategies.h"

#include "conclave/model/Node.h"

#include <array>

namespace conclave {

namespace {

constexpr double kBig = 1e300;

// The fields, once each; a strategy lists those it reads.
constexpr RouterField kRoutes{.key = "routes",
                              .kind = FieldKind::RouteMap,
                              .slot = &NodeConfig::routes,
                              .label = "Routes",
                              .rule = {"routes", "an object of route label -> keywords", false, 0, 0, false},
                              .required = true,
                              .hint = "label -> keywords",
                              .warnUnused = true};
constexpr RouterField kDefault{.key = "default",
                               .kind = FieldKind::RouteLabel,
                               .slot = &NodeConfig::defaultRoute,
                               .label = "Default route",
                               .rule = {"default", "a route label", false, 0, 0, false}};
constexpr RouterField kTopK{.key = "top_k",
                            .kind = FieldKind::Integer,
                            .slot = &NodeConfig::topK,
                            .label = "Top k",
                            .rule = {"top_k", "an integer of at least 1", true, 1, kBig, false}};
constexpr RouterField kMinWeight{.key = "min_weight",
                                 .kind = FieldKind::Number,
                                 .slot = &NodeConfig::minWeight,
                                 .label = "Min weight",
                                 .rule = {"min_weight", "a number from 0 to 1", false, 0, 1, false}};

constexpr std::string_view kPolicies[] = {"cheapest_above", "max_utility", "strong_weak"};
constexpr RouterField kRouterFile{.key = "router_file",
                                  .kind = FieldKind::Path,
                                  .slot = &NodeConfig::routerFile,
                                  .label = "Router file",
                                  .rule = {"router_file", "a path to a router file (conclave train-router)", false, 0, 0, false},
                                  .required = true,
                                  .hint = "what conclave train-router writes",
                                  .warnUnused = true};
constexpr RouterField kPolicy{.key = "policy",
                              .kind = FieldKind::Enum,
                              .slot = &NodeConfig::routePolicy,
                              .label = "Policy",
                              .rule = {"policy", "cheapest_above, max_utility or strong_weak", false, 0, 0, false},
                              .required = true,
                              .hint = "cheapest_above, max_utility or strong_weak",
                              .values = kPolicies,
                              .warnUnused = true};
constexpr RouterField kRouteThreshold{.key = "threshold",
                                      .kind = FieldKind::Number,
                                      .slot = &NodeConfig::routeThreshold,
                                      .label = "Threshold",
                                      .rule = {"threshold", "a number from -1 to 1", false, -1, 1, false}};
constexpr RouterField kCostWeight{.key = "cost_weight",
                                  .kind = FieldKind::Number,
                                  .slot = &NodeConfig::costWeight,
                                  .label = "Cost weight",
                                  .rule = {"cost_weight", "a number of at least 0", false, 0, kBig, false},
                                  .warnUnused = true};
constexpr RouterField kStrong{.key = "strong",
                              .kind = FieldKind::NodeRef,
                              .slot = &NodeConfig::strongRoute,
                              .label = "Strong route",
                              .rule = {"strong", "the id of one of the router's targets", false, 0, 0, false},
                              .warnUnused = true};
constexpr RouterField kWeak{.key = "weak",
                            .kind = FieldKind::NodeRef,
                            .slot = &NodeConfig::weakRoute,
                            .label = "Weak route",
                            .rule = {"weak", "the id of one of the router's targets", false, 0, 0, false},
                            .warnUnused = true};

constexpr std::array kKeywordFields{kRoutes, kDefault};
constexpr std::array kMoeGateFields{kTopK, kMinWeight};
constexpr std::array kLlmFields{kDefault};
constexpr std::array kLearnedFields{kRouterFile, kPolicy, kRouteThreshold, kCostWeight, kStrong, kWeak};

// The strategies, in the order the format lists them.
constexpr std::array kStrategies{
    RouterStrategyDescriptor{.strategy = RouterStrategy::All,
                             .name = "all",
                             .article = "an",
                             .summary = "every edge fires",
                             .labelsEdges = false},
    RouterStrategyDescriptor{.strategy = RouterStrategy::Keyword,
                             .name = "keyword",
                             .article = "a",
                             .summary = "edges whose label's keywords match",
                             .fields = kKeywordFields},
    RouterStrategyDescriptor{.strategy = RouterStrategy::MoeGate,
                             .name = "moe_gate",
                             .article = "a",
                             .summary = "the top k experts by gate weight",
                             .fields = kMoeGateFields},
    RouterStrategyDescriptor{.strategy = RouterStrategy::Llm,
                             .name = "llm",
                             .article = "an",
                             .summary = "the model names one edge label",
                             .callsModel = true,
                             .fields = kLlmFields},
    RouterStrategyDescriptor{.strategy = RouterStrategy::Learned,
                             .name = "learned",
                             .article = "a",
                             .summary = "the route a trained router file predicts right, by its policy",
                             .formatVersion = 3,
                             .labelsEdges = false,
                             .fields = kLearnedFields},
};

template <size_t N>
constexpr std::array<RouterStrategy, N> valuesOf(const std::array<RouterStrategyDescriptor, N>& strategies)
{
    std::array<RouterStrategy, N> out{};
    for (size_t i = 0; i < N; ++i)
        out[i] = strategies[i].strategy;
    return out;
}

constexpr auto kValues = valuesOf(kStrategies);

std::vector<const RouterField*> fieldsOnce()
{
    std::vector<const RouterField*> out;
    for (const auto& s : kStrategies) {
        for (const auto& f : s.fields) {
            const bool seen =
                std::any_of(out.begin(), out.end(), [&](const RouterField* o) { return o->key == f.key; });
            if (!seen)
                out.push_back(&f);
        }
    }
    return out;
}

} // namespace

std::span<const RouterStrategyDescriptor> RouterStrategies::all()
{
    return kStrategies;
}

const RouterStrategyDescriptor& RouterStrategies::of(RouterStrategy strategy)
{
    for (const auto& s : kStrategies) {
        if (s.strategy == strategy)
            return s;
    }
    return kStrategies.front(); // every enumerator has an entry (tst_routerstrategies)
}

const RouterStrategyDescriptor* RouterStrategies::find(std::string_view name)
{
    for (const auto& s : kStrategies) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

std::span<const RouterStrategy> RouterStrategies::values()
{
    return kValues;
}

std::span<const RouterField* const> RouterStrategies::fields()
{
    static const std::vector<const RouterField*> kFields = fieldsOnce();
    return kFields;
}

const RouterField* RouterStrategies::field(std::string_view key)
{
    for (const RouterField* f : fields()) {
        if (f->key == key)
            return f;
    }
    return nullptr;
}

std::vector<std::string_view> RouterStrategies::strategiesWith(std::string_view key)
{
    std::vector<std::string_view> out;
    for (const auto& s : kStrategies) {
        if (s.field(key))
            out.push_back(s.name);
    }
    return out;
}

std::string RouterStrategies::namesInWords(std::span<const std::string_view> names)
{
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            out += i + 1 == names.size() ? " or " : ", ";
        out += names[i];
    }
    return out;
}

std::string RouterStrategies::namesInWords()
{
    std::vector<std::string_view> names;
    for (const auto& s : kStrategies)
        names.push_back(s.name);
    return namesInWords(names);
}

bool RouterStrategies::isSet(const RouterField& field, const NodeConfig& config)
{
    return std::visit(
        [&](auto member) {
            const auto& value = config.*member;
            if constexpr (requires { value->empty(); })
                return value.has_value() && !value->empty();
            else
                return value.has_value();
        },
        field.slot);
}

bool RouterStrategies::hasValue(const RouterField& field, const NodeConfig& config)
{
    return std::visit([&](auto member) { return (config.*member).has_value(); }, field.slot);
}

const RouteTable* RouterStrategies::table(const RouterField& field, const NodeConfig& config)
{
    const auto* member = std::get_if<std::optional<RouteTable> NodeConfig::*>(&field.slot);
    return member && (config.**member) ? &*(config.**member) : nullptr;
}

std::optional<double> RouterStrategies::number(const RouterField& field, const NodeConfig& config)
{
    return std::visit(
        [&](auto member) -> std::optional<double> {
            const auto& value = config.*member;
            if constexpr (std::is_arithmetic_v<std::decay_t<decltype(*value)>>) {
                if (value)
                    return static_cast<double>(*value);
            }
            return std::nullopt;
        },
        field.slot);
}

std::optional<std::string> RouterStrategies::text(const RouterField& field, const NodeConfig& config)
{
    return std::visit(
        [&](auto member) -> std::optional<std::string> {
            const auto& value = config.*member;
            if constexpr (std::is_same_v<std::decay_t<decltype(*value)>, std::string>)
                return value;
            return std::nullopt;
        },
        field.slot);
}

} // namespace conclave
