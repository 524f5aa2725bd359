#pragma once

#include "conclave/model/RouterStrategyDescriptor.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

struct NodeConfig;

// The registry of router strategies: one descriptor per strategy, in the
// order the format lists them. The one home of what a strategy is; a new
// strategy is one entry here (and its behaviour, made by session/).
// Plain constant data: no state, nothing to set up.
class RouterStrategies {
public:
    static std::span<const RouterStrategyDescriptor> all();
    static const RouterStrategyDescriptor& of(RouterStrategy strategy);
    static const RouterStrategyDescriptor* find(std::string_view name);
    // The strategies, in order.
    static std::span<const RouterStrategy> values();

    // Every field of every strategy, once per key, in canonical order: the
    // order the strategies list them.
    static std::span<const RouterField* const> fields();
    static const RouterField* field(std::string_view key);
    // The names of the strategies that have `key`, in order.
    static std::vector<std::string_view> strategiesWith(std::string_view key);

    // "all, keyword, moe_gate or llm": the names in words, for messages.
    static std::string namesInWords(std::span<const std::string_view> names);
    static std::string namesInWords();

    // Whether `config` holds a value for the field (an empty text or table counts as none).
    static bool isSet(const RouterField& field, const NodeConfig& config);
    // Whether the file gave the field at all, empty or not.
    static bool hasValue(const RouterField& field, const NodeConfig& config);
    // A RouteMap field's table; null when it is not a table or not set.
    static const RouteTable* table(const RouterField& field, const NodeConfig& config);
    // A numeric field's value; nullopt when it is not numeric or not set.
    static std::optional<double> number(const RouterField& field, const NodeConfig& config);
    // A text field's value (String, Path, Enum, NodeId, RouteLabel); nullopt when it is not text or not set.
    static std::optional<std::string> text(const RouterField& field, const NodeConfig& config);
};

} // namespace conclave
