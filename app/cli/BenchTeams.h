#pragma once

#include "conclave/io/TeamJson.h"
#include "conclave/model/Team.h"

#include <nlohmann/json.hpp>

#include <string>

namespace conclave::cli {

// A bench's single-model design: input → one expert on `model` → output, on the
// one backend `local` that `backend` describes (a local-moe block).
inline Team benchSingleModelTeam(const std::string& model, const nlohmann::ordered_json& backend)
{
    const nlohmann::ordered_json team{
        {"conclave", 2},
        {"name", model + " alone"},
        {"backends", {{"local", backend}}},
        {"defaults", {{"backend", "local"}}},
        {"nodes",
         {{{"id", "in"}, {"kind", "input"}},
          {{"id", "m"}, {"kind", "expert"}, {"model", model}, {"prompt", "{{input}}"}},
          {{"id", "out"}, {"kind", "output"}}}},
        {"edges", {{{"from", "in"}, {"to", "m"}}, {{"from", "m"}, {"to", "out"}}}}};
    return *teamFromJsonText(team.dump()).team;
}

} // namespace conclave::cli
