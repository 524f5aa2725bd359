#include "conclave/model/NodeKind.h"

#include "conclave/model/RouterStrategies.h"

#include <array>
#include <utility>

namespace conclave {

namespace {

template <class Enum, size_t N>
using Names = std::array<std::pair<Enum, std::string_view>, N>;

constexpr Names<NodeKind, 6> kNodeKinds{{{NodeKind::Input, "input"},
                                         {NodeKind::Router, "router"},
                                         {NodeKind::Expert, "expert"},
                                         {NodeKind::Coordinator, "coordinator"},
                                         {NodeKind::Aggregator, "aggregator"},
                                         {NodeKind::Output, "output"}}};
constexpr Names<AggregatorStrategy, 6> kAggregatorStrategies{
    {{AggregatorStrategy::Majority, "majority"},
     {AggregatorStrategy::Weighted, "weighted"},
     {AggregatorStrategy::BestConfidence, "best_confidence"},
     {AggregatorStrategy::First, "first"},
     {AggregatorStrategy::Concat, "concat"},
     {AggregatorStrategy::Synthesize, "synthesize"}}};
constexpr Names<CoordinatorMode, 5> kCoordinatorModes{{{CoordinatorMode::RoundRobin, "round_robin"},
                                                       {CoordinatorMode::Debate, "debate"},
                                                       {CoordinatorMode::Decompose, "decompose"},
                                                       {CoordinatorMode::Cascade, "cascade"},
                                                       {CoordinatorMode::Adaptive, "adaptive"}}};
constexpr Names<BackendKind, 3> kBackendKinds{
    {{BackendKind::LocalMoe, "local-moe"}, {BackendKind::OpenAi, "openai"}, {BackendKind::Recorded, "recorded"}}};

template <class Enum, size_t N>
std::string_view nameOf(const Names<Enum, N>& names, Enum value)
{
    for (const auto& [e, name] : names) {
        if (e == value)
            return name;
    }
    return "?";
}

template <class Enum, size_t N>
std::optional<Enum> valueOf(const Names<Enum, N>& names, std::string_view text)
{
    for (const auto& [e, name] : names) {
        if (name == text)
            return e;
    }
    return std::nullopt;
}

template <class Enum, size_t N>
constexpr std::array<Enum, N> valuesOf(const Names<Enum, N>& names)
{
    std::array<Enum, N> out{};
    for (size_t i = 0; i < N; ++i)
        out[i] = names[i].first;
    return out;
}

constexpr auto kNodeKindValues = valuesOf(kNodeKinds);
constexpr auto kAggregatorStrategyValues = valuesOf(kAggregatorStrategies);
constexpr auto kCoordinatorModeValues = valuesOf(kCoordinatorModes);
constexpr auto kBackendKindValues = valuesOf(kBackendKinds);

} // namespace

std::string_view toString(NodeKind kind) { return nameOf(kNodeKinds, kind); }
// A router strategy's name is its descriptor's (RouterStrategies, the one list of strategies).
std::string_view toString(RouterStrategy strategy) { return RouterStrategies::of(strategy).name; }
std::string_view toString(AggregatorStrategy strategy) { return nameOf(kAggregatorStrategies, strategy); }
std::string_view toString(CoordinatorMode mode) { return nameOf(kCoordinatorModes, mode); }
std::string_view toString(BackendKind kind) { return nameOf(kBackendKinds, kind); }

std::string kindWithArticle(NodeKind kind) { return withArticle(toString(kind)); }

std::string withArticle(std::string_view phrase)
{
    const bool vowel = !phrase.empty() && std::string_view("aeiou").find(phrase.front()) != std::string_view::npos;
    return (vowel ? "an " : "a ") + std::string(phrase);
}

template <>
std::optional<NodeKind> enumFromString<NodeKind>(std::string_view text) { return valueOf(kNodeKinds, text); }
template <>
std::optional<RouterStrategy> enumFromString<RouterStrategy>(std::string_view text)
{
    const auto* descriptor = RouterStrategies::find(text);
    return descriptor ? std::optional<RouterStrategy>(descriptor->strategy) : std::nullopt;
}
template <>
std::optional<AggregatorStrategy> enumFromString<AggregatorStrategy>(std::string_view text)
{
    return valueOf(kAggregatorStrategies, text);
}
template <>
std::optional<CoordinatorMode> enumFromString<CoordinatorMode>(std::string_view text)
{
    return valueOf(kCoordinatorModes, text);
}
template <>
std::optional<BackendKind> enumFromString<BackendKind>(std::string_view text) { return valueOf(kBackendKinds, text); }

template <>
std::span<const NodeKind> allValues<NodeKind>() { return kNodeKindValues; }
template <>
std::span<const RouterStrategy> allValues<RouterStrategy>() { return RouterStrategies::values(); }
template <>
std::span<const AggregatorStrategy> allValues<AggregatorStrategy>() { return kAggregatorStrategyValues; }
template <>
std::span<const CoordinatorMode> allValues<CoordinatorMode>() { return kCoordinatorModeValues; }
template <>
std::span<const BackendKind> allValues<BackendKind>() { return kBackendKindValues; }

} // namespace conclave
