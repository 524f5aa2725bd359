#pragma once

#include <optional>
#include <vector>

namespace conclave {

// How well a score separates positives from negatives (a stated confidence,
// right answers from wrong ones): the area under the ROC curve in its
// Mann–Whitney form (Hanley & McNeil, "The meaning and use of the area under
// a receiver operating characteristic (ROC) curve", Radiology 143, 1982):
//     AUROC = (1 / (n₊·n₋)) · Σ over pairs (p, n) of [s_p > s_n] + ½·[s_p = s_n]
// the chance that a random positive scores above a random negative, ties
// counting one half. Computed from mid-ranks in O(n log n).
class Auroc {
public:
    // None when either side is empty.
    static std::optional<double> of(std::vector<double> positives, std::vector<double> negatives);
};

} // namespace conclave
