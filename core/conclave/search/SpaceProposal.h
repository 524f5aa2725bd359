#pragma once

#include "conclave/model/Backend.h"
#include "conclave/model/Team.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace conclave {

// A design search's space proposed from a team's own fields: the `--vary`
// flags (SweepSpec's grammar) the studio's space table starts from, in node
// order, each node's fields in canonical key order. Only fields its kind and
// strategy or mode read, so no proposed value changes nothing:
//   model     a node that calls a model on a local-moe backend: its own and
//             the backend's models no other is both cheaper and more skilled
//             than (mean skill over domains; price in + out per Mtok), at most
//             kMaxModels, cheapest first (thinned by dropping the one that
//             adds the least skill over the next cheaper one); the experts
//             behind a learned route or a scorer's cascade only among the
//             models that file knows
//   router    moe_gate: top_k=1:ROUTES:1, min_weight=0:0.3:0.05; learned:
//             threshold=0.1:0.9:0.1 (cheapest_above, strong_weak) or
//             cost_weight=0:1:0.25 (max_utility)
//   aggregator majority, weighted: quorum=1:INPUTS:1; those and
//             best_confidence, synthesize: min_confidence=0.5:0.95:0.05;
//             synthesize: skip_when_agree=true,false, and agree_fraction=
//             0.5:1:0.1 when it skips already
//   coordinator round_robin, debate: max_rounds=1:4:1, consensus=0.5:1:0.1;
//             cascade: threshold=0.5:0.95:0.05; adaptive: initial and
//             max_rounds=1:MEMBERS:1, consensus, threshold; decompose:
//             max_subtasks=1:MEMBERS:1
//   expert    weight=0.5:2:0.5 when it feeds a weighted aggregator
// A count-bounded field (top_k, quorum, initial…) is proposed only when its
// bound is 2 or more. Every flag builds a valid SearchSpace over the team.
class SpaceProposal {
public:
    static constexpr size_t kMaxModels = 5;

    // `catalog`: the local-moe backend's shipped profiles (LocalModelCatalog); `folder`: where the
    // team's relative files (models_file, router_file, scorer) are found from.
    static std::vector<std::string> flags(const Team& team, const std::filesystem::path& folder,
                                          const std::map<std::string, ModelProfile>& catalog);
};

} // namespace conclave
