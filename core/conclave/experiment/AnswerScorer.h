#pragma once

#include "conclave/local/TaskSet.h"

#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// Scores a design's final answer against a task's reference, the same way for
// every design and every trial. Both sides are normalised by
// ReplyParser::normalizeAnswer and by nothing else, so a score agrees with how
// the engine reads and votes on answers. Pure: no state, never throws.
//
// In order:
//   no reference answer  correct unset (a judge must score), method "unscored"
//   a tolerance          both read by TaskSet::parseNumber ("1,027", "-3.5",
//                        "1e3"; not "1,5" or "5 apples"); correct when
//                        |answer - reference| <= tolerance, an answer that is
//                        not a number is wrong; method "numeric ±TOL" (TOL in
//                        its shortest form: "numeric ±0.5"). A reference that
//                        is not a number (the loader refuses one) leaves the
//                        task unscored.
//   choices              the answer must be one of the choices and the
//                        reference; one that is not a choice is wrong;
//                        method "choice"
//   otherwise            equal text; method "exact"
// `expected` is always the normalised reference.
class AnswerScorer {
public:
    struct Score {
        std::optional<bool> correct; // unset: this scorer cannot tell
        std::string expected;
        std::string method;

        friend bool operator==(const Score&, const Score&) = default;
    };

    static Score score(const Task& task, std::string_view answer);
};

} // namespace conclave
