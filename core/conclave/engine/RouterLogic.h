#pragma once

#include "conclave/model/Node.h"

#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// The pure decisions of a router: which labels a keyword table picks, and
// which targets a mixture-of-experts gate picks. No timing, no threads.
class RouterLogic {
public:
    // Labels whose keywords occur in text (case-insensitive substrings, or
    // regexes written "/.../"), in table order; the default when none match.
    static std::vector<std::string> keywordLabels(const RouteTable& routes, const std::optional<std::string>& fallback,
                                                  std::string_view text);

    // Indices of the chosen targets given each target's gate score: the top_k
    // best, dropping any whose share of the total is below minWeight (the best
    // one always stays). Ties go to the earlier target.
    static std::vector<size_t> topTargets(const std::vector<double>& scores, size_t topK, double minWeight);

    // Every index, best score first; ties keep index order (edge order, for
    // targets or members). The one order a gate's scores are read in.
    static std::vector<size_t> ranked(const std::vector<double>& scores);

    static bool keywordMatches(std::string_view keyword, std::string_view text);
};

} // namespace conclave
