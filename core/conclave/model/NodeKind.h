#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace conclave {

enum class NodeKind { Input, Router, Expert, Coordinator, Aggregator, Output };
enum class RouterStrategy { All, Keyword, MoeGate, Llm, Learned };
enum class AggregatorStrategy { Majority, Weighted, BestConfidence, First, Concat, Synthesize };
enum class CoordinatorMode { RoundRobin, Debate, Decompose, Cascade, Adaptive };
enum class EdgeRole { Flow, Member };
enum class BackendKind { LocalMoe, OpenAi, Recorded };

// The spelling of each enumerator in team files, the CLI and the UI: one name everywhere.
std::string_view toString(NodeKind kind);
std::string_view toString(RouterStrategy strategy);
std::string_view toString(AggregatorStrategy strategy);
std::string_view toString(CoordinatorMode mode);
std::string_view toString(BackendKind kind);

// "an expert", "a router": a kind with its article, for messages.
std::string kindWithArticle(NodeKind kind);

// "an openai backend", "a local-moe backend": a phrase with the article its first letter takes.
std::string withArticle(std::string_view phrase);

template <class Enum>
std::optional<Enum> enumFromString(std::string_view text);

template <class Enum>
std::span<const Enum> allValues();

template <>
std::optional<NodeKind> enumFromString<NodeKind>(std::string_view text);
template <>
std::span<const NodeKind> allValues<NodeKind>();
template <>
std::optional<RouterStrategy> enumFromString<RouterStrategy>(std::string_view text);
template <>
std::span<const RouterStrategy> allValues<RouterStrategy>();
template <>
std::optional<AggregatorStrategy> enumFromString<AggregatorStrategy>(std::string_view text);
template <>
std::span<const AggregatorStrategy> allValues<AggregatorStrategy>();
template <>
std::optional<CoordinatorMode> enumFromString<CoordinatorMode>(std::string_view text);
template <>
std::span<const CoordinatorMode> allValues<CoordinatorMode>();
template <>
std::optional<BackendKind> enumFromString<BackendKind>(std::string_view text);
template <>
std::span<const BackendKind> allValues<BackendKind>();

} // namespace conclave
