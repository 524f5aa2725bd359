#pragma once

#include "conclave/engine/CallPurpose.h"
#include "conclave/model/Backend.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

class WrongAnswers;

// A synthesizer that follows a profile's `synthesis` table (docs/simulator.md):
// with k of its candidates right, its answer is right with chance
// p_right_given_right[min(k, last)]. A wrong answer is, with chance
// self_answer, its own: a wrong answer drawn as an expert's (the task's
// attractive one with the model's agreement, else another), moved on to the
// next wrong answer in WrongAnswers order when a candidate gave it, so that it
// is none of theirs; otherwise, or when every wrong answer was a candidate's,
// it is the candidates' most supported wrong answer: the most candidates, then
// the larger sum of their confidences, then the one given first. With no wrong
// candidate to take, a wrong answer is its own.
class SynthesisTable {
public:
    // Uniform draws in [0, 1), one per decision.
    struct Draws {
        double right = 0; // right when below p_k
        double self = 0;  // its own wrong answer when below self_answer
        double wrong = 0; // its own wrong answer is the attractive one when below the agreement
        double other = 0; // which other wrong answer
    };

    explicit SynthesisTable(SynthesisProfile profile);

    // p_k, the last entry for every larger k.
    double pRight(size_t rightCandidates) const;

    // The answer (normalised) for candidates about a task whose normalised
    // truth is `truth`; `correct` says whether it is the truth.
    std::string answer(const std::vector<Candidate>& candidates, const std::string& truth, const WrongAnswers& wrong,
                       double agreement, const Draws& draws, bool& correct) const;

    // The candidates' most supported wrong answer (normalised), as above; none when no candidate is wrong.
    static std::optional<std::string> mostSupportedWrong(const std::vector<Candidate>& candidates,
                                                         const std::string& truth);

private:
    SynthesisProfile m_profile;
};

} // namespace conclave
