#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/routing/ScorerModel.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// scorer.json, what `conclave train-scorer` writes and a coordinator's
// `scorer` reads:
//   { "format": 1, "kind": "scorer",
//     "features": { "prompt": { "buckets": B, "domains": [...], "char_grams": [3, 5] },
//                   "answer": ["length", "number", "choice", "answer_line", "confidence", "agree", "asked"] },
//     "models": [ { "name", "answers", "base_rate", "c", "bias", "weights": [[index, weight], ...] } ],
//     "trained_on": { "experiments": [...], "tasks": [{"set", "id"}...], "holdout", "seed" },
//     "heldout": { "tasks": [...], "models": { NAME: { "answers", "log_loss", "auroc", "confidence_auroc" } } } }
// Models are in cascade order. A weight's index is below B + 3 + domains
// (the prompt's PromptFeatures) + 7 (the answer's AnswerFeatures, in the
// order "answer" lists them, which must be this build's). A newer format is
// refused; every problem says where (a JSON pointer) and what.
class ScorerFile {
public:
    static constexpr int64_t kFormat = 1;
    struct LoadResult {
        std::optional<ScorerModel> model;
        std::vector<Problem> problems;
    };

    static LoadResult load(const std::filesystem::path& path);
    static LoadResult fromJsonText(std::string_view text);
    static std::string toJsonText(const ScorerModel& model);
};

} // namespace conclave
