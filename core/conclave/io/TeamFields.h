#pragma once

#include "conclave/model/FieldRule.h"
#include "conclave/model/NodeKind.h"

#include <span>
#include <string_view>

namespace conclave {

// The keys of each object of the team file format, in canonical order. The
// reader accepts exactly these (anything else is kept as an unknown key), the
// writer writes them in this order, and a test holds the JSON Schema to them.
enum class TeamObject { Team, Node, Edge, Backend, Params, Defaults, Budget, Profile, Distribution, Price };

std::span<const std::string_view> teamObjectKeys(TeamObject object);

// The node keys that a node of this kind accepts, in canonical order.
std::span<const std::string_view> nodeKeys(NodeKind kind);

// The backend keys that a backend of this kind accepts, in canonical order.
std::span<const std::string_view> backendKeys(BackendKind kind);

bool containsKey(std::span<const std::string_view> keys, std::string_view key);

} // namespace conclave

namespace conclave {

// The rule for a numeric key; every numeric key of the format has one (a
// router's come from its strategies' fields, RouterStrategies).
const FieldRule& fieldRule(std::string_view key);

} // namespace conclave
