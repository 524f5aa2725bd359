#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// What a cascade scorer reads of an answer itself, beside its prompt's
// PromptFeatures: seven values, each in [0, 1], at the indices after the
// prompt's (ScorerModel). `answer` is the normalised answer
// (ReplyParser::normalizeAnswer).
//   0 length       ln(1 + the answer's bytes) / ln(1000), at most 1;
//   1 number       1 when the answer is a decimal number (parseNumber), else 0;
//   2 choice       1 when it is one of the choices as a run can see them (a
//                  task set's `choices` never reach a run's input): a single
//                  letter a–e, or, not being a number, words the prompt holds
//                  whole (ASCII case-insensitive, bounded by characters that
//                  are not letters or digits, or by the prompt's ends);
//                  else 0;
//   3 answer_line  1 when the reply gave it on an "Answer:" line, else 0;
//   4 confidence   the confidence the reply stated (0.5 when none), clamped;
//   5 agree        the members asked before it that gave the same answer, as
//                  a share of those asked (0 when none was asked);
//   6 asked        the members asked before it, a, as a / (a + 1): 0, 1/2, 2/3 …
class AnswerFeatures {
public:
    static constexpr uint32_t kCount = 7;

    struct Inputs {
        std::string_view prompt;
        std::string_view answer; // normalised
        bool answerLine = false;
        double confidence = 0.5;
        int same = 0;  // members asked before it that gave the same normalised answer
        int asked = 0; // members asked before it
    };

    // The names, in index order, as the scorer file lists them.
    static const std::array<std::string_view, kCount>& names();
    static std::array<double, kCount> of(const Inputs& inputs);

    // How many of `earlier` (normalised answers) equal `answer`.
    static int sameAs(std::string_view answer, const std::vector<std::string>& earlier);
    // Feature 2 alone.
    static bool isChoice(std::string_view prompt, std::string_view answer);
};

} // namespace conclave
