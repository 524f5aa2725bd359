#pragma once

// One expert on the local simulator, tiny-1b by default: the team the search suites vary.
namespace testsupport {

inline constexpr const char* kSoloTeam = R"({
  "conclave": 1, "name": "solo",
  "backends": {"local": {"kind": "local-moe"}},
  "defaults": {"backend": "local", "model": "local/tiny-1b"},
  "nodes": [{"id": "in", "kind": "input"}, {"id": "e", "kind": "expert"}, {"id": "out", "kind": "output"}],
  "edges": [{"from": "in", "to": "e"}, {"from": "e", "to": "out"}]
})";

} // namespace testsupport
