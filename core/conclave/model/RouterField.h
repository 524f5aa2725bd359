#pragma once

#include "conclave/model/FieldRule.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace conclave {

struct NodeConfig;

using RouteTable = std::map<std::string, std::vector<std::string>>;

// What a router field holds, as the reader, the validator and the inspector
// treat it.
enum class FieldKind {
    String,     // any text
    Path,       // a file, relative to the team file's folder
    Enum,       // one of `values`
    Number,     // a number in `rule`'s range
    Integer,    // an integer in `rule`'s range
    NodeRef,    // the id of one of the router's targets
    RouteLabel, // one of the router's edge labels (when)
    RouteMap,   // route label -> list of strings
};

// Where a field's value lives in NodeConfig: the member it is read into and
// written from, edited through and checked in.
using FieldSlot = std::variant<std::optional<std::string> NodeConfig::*, std::optional<int64_t> NodeConfig::*,
                               std::optional<double> NodeConfig::*, std::optional<RouteTable> NodeConfig::*>;

// One field of a router strategy (RouterStrategyDescriptor).
struct RouterField {
    std::string_view key; // as the team file spells it: "top_k"
    FieldKind kind;
    FieldSlot slot;
    std::string_view label; // the inspector's: "Top k"
    // The type, and for numbers the range, in words ("an integer of at least 1"),
    // for the reader's type errors and the validator's range errors.
    FieldRule rule;
    bool required = false;
    // Said after the key when a required field is missing: "label -> keywords".
    std::string_view hint = {};
    std::span<const std::string_view> values = {}; // Enum: the spellings it takes
    // Warn when a router whose strategy has no such field sets it.
    bool warnUnused = false;
};

} // namespace conclave
