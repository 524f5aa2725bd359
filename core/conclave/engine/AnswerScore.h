#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// One member's answer as a cascade or adaptive meeting sees it, for an AnswerScore.
struct ScoredAnswer {
    std::string_view input;  // the run's input text (the meeting's task)
    std::string_view model;  // the member's model (its node's `model`)
    std::string_view text;   // its whole reply
    std::string_view answer; // the answer ReplyParser read from it
    double confidence = 0.5; // the confidence it stated (0.5 when none)
    // The answers of the members asked before it in the meeting (a cascade's
    // earlier steps, an adaptive meeting's earlier members in asking order),
    // as ReplyParser read them; `asked` counts those asked, answered or not.
    std::vector<std::string> earlier;
    int asked = 0;
};

// A learned estimate of P(an answer is right), which a coordinator with a
// `scorer` reads instead of the answer's stated confidence (conclave
// train-scorer; session/ implements it over routing/'s ScorerPredictor).
// Promises: score() is pure and quick (no I/O, no blocking, no call back into
// the run), returns a probability in [0, 1], and may be called from any thread
// at once, with the run's lock held.
class AnswerScore {
public:
    virtual ~AnswerScore() = default;
    virtual double score(const ScoredAnswer& answer) const = 0;
};

} // namespace conclave
