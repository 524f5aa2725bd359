#pragma once

#include "conclave/model/NodeKind.h"
#include "conclave/model/RouterField.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace conclave {

// What a router strategy is, as data: its name, its fields, the format version
// it needs, whether it calls a model. The reader, the writer, the validator,
// the inspector and the canvas read this; what it does when a router runs is
// its behaviour (engine/RouterBehaviour), made by session/.
struct RouterStrategyDescriptor {
    RouterStrategy strategy;
    std::string_view name;     // as the team file spells it: "moe_gate"
    std::string_view article;  // as the name is said: "an" llm, "a" keyword
    std::string_view summary;  // what it fires, for the inspector: "the top k experts by gate weight"
    int64_t formatVersion = 1; // the lowest team format version that has it
    bool callsModel = false;   // it asks the router's model (so the router needs one)
    bool labelsEdges = true;   // its edges carry route labels; false for a broadcast
    std::span<const RouterField> fields = {};

    // "an llm router", "a keyword router": a router of this strategy, for messages.
    std::string routerPhrase() const { return std::string(article) + ' ' + std::string(name) + " router"; }

    const RouterField* field(std::string_view key) const
    {
        const auto it = std::find_if(fields.begin(), fields.end(), [&](const RouterField& f) { return f.key == key; });
        return it == fields.end() ? nullptr : &*it;
    }
};

} // namespace conclave
