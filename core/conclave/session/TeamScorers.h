#pragma once

#include "conclave/engine/AnswerScore.h"
#include "conclave/local/Gate.h"
#include "conclave/model/Team.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>

namespace conclave {

// The scorers of a team's cascade and adaptive coordinators (`scorer`), loaded
// when the team is prepared: each file read (ScorerFile; a relative path found
// in `teamFolder`, as a models_file is), checked against the gate, and every
// member checked to be an expert whose model the scorer knows. Fails with
// `error` naming the node and the file, e.g.
//   node "cascade": scorer "scorer.json": /models/0/c: expected a finite number, got "x"
class TeamScorers {
public:
    using Map = std::map<NodeId, std::shared_ptr<const AnswerScore>>;
    static Map load(const Team& team, const std::filesystem::path& teamFolder, std::shared_ptr<const Gate> gate,
                    std::string& error);
};

} // namespace conclave
