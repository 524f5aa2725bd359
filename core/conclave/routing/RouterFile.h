#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/routing/RouterModel.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// router.json, what `conclave train-router` writes and a `learned` router reads:
//   { "format": 1, "method": "logistic"|"knn",
//     "features": { "kind": "prompt", "buckets": B, "domains": [...], "char_grams": [3, 5] },
//     "models": [ { "name", "answers", "base_rate",
//                   logistic: "c", "bias", "weights": [[index, weight], ...] } ],
//     knn: "k", "prompts": [ { "features": [[index, value], ...],
//                                           "outcomes": [share right or null, one per model] } ],
//     "trained_on": { "experiments": [...], "tasks": [...] , "holdout", "seed" },
//     "heldout": { "tasks": N, "models": { NAME: { "answers", "log_loss", "auroc", "domain_auroc" } } } }
// A newer format is refused; every problem says where (a JSON pointer) and what.
class RouterFile {
public:
    static constexpr int64_t kFormat = 1;
    struct LoadResult {
        std::optional<RouterModel> model;
        std::vector<Problem> problems;
    };

    static LoadResult load(const std::filesystem::path& path);
    static LoadResult fromJsonText(std::string_view text);
    static std::string toJsonText(const RouterModel& model);
};

} // namespace conclave
