#pragma once

#include "conclave/bench/WorldPrompt.h"
#include "conclave/bench/WorldSpec.h"
#include "conclave/diagnostics/Problem.h"
#include "conclave/local/CallResponder.h"
#include "conclave/local/TaskSet.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace conclave {

// A world of models with rules of its own, to measure the simulator against
// something it is not (issue 31, docs/ground-truth-worlds.md). It answers
// every call as a real model would: from the prompt's words alone (WorldPrompt
// says what a call is), never from ModelRequest::purpose or ::inputs, so the
// same request gets the same reply in process (LocalMoeBackend) and served
// over HTTP (ChatTestServer). Its rules differ in form from the simulator's:
//   right        P = 1 / (1 + exp(−slope · (ability − d))), a logistic curve
//                with each model's own slope; a task's true difficulty
//                d = shift + √r · readable(prompt) + √(1 − r) · hidden(id)
//                (a task set's `difficulty` field is ignored)
//   wrong        per task a popularity over its wrong options drawn from a
//                symmetric Dirichlet(α); every wrong model draws from it
//   confidence   Beta(κ, 1) when right, Beta(1, κ) when wrong, scaled to
//                [floor, ceiling]; κ gives the file's AUROC exactly
//   latency      log-logistic ttft and output tokens, a fixed speed; the
//                call's load_slope for LocalMoeBackend or the server
// Every draw is keyed on (world seed, model, system prompt, prompt, the
// request's `seed` param): what both paths know. A repeated identical call
// answers identically, as a deterministic endpoint would; a call's attempt is
// not known over HTTP and changes nothing. The world has no failures.
// Immutable after loading: respond() is called from any thread.
class GroundTruthWorld : public CallResponder {
public:
    struct LoadResult {
        std::shared_ptr<const GroundTruthWorld> world; // set when there is no error
        std::vector<Problem> problems;
    };
    // Task sets named by the file are resourcesDir/tasksets/NAME.jsonl.
    static LoadResult load(const std::filesystem::path& path, const std::filesystem::path& resourcesDir);
    static LoadResult fromJsonText(std::string_view text, const std::filesystem::path& resourcesDir);

    GroundTruthWorld(WorldSpec spec, std::shared_ptr<const TaskSet> tasks);
    // The same world file under another seed (`--world-seed`): new hidden
    // difficulties, word weights, popularities and luck.
    std::shared_ptr<const GroundTruthWorld> withSeed(uint64_t seed) const;
    // The seed this world is drawn under when a set of worlds is drawn again
    // under one seed S (`bench fidelity --world-seed S`): S mixed with the
    // world's name, so that worlds drawn under one S share no draws (hidden
    // difficulties, word weights, luck) and their verdicts are independent.
    uint64_t seedUnder(uint64_t setSeed) const;

    SimulatedCall respond(const ModelRequest& request) const override;
    double costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const override;

    const WorldSpec& spec() const { return m_spec; }
    const TaskSet& tasks() const { return *m_tasks; }

    // What the world holds true of a task (or a free prompt).
    struct Truth {
        std::string domain;
        std::string answer; // normalised
        double difficulty = 0;
        std::vector<std::string> wrong; // normalised wrong options
        std::vector<double> popularity; // Dirichlet(α) weights over `wrong`
    };
    const Truth& truth(const Task& task) const;
    // A free prompt's truth: an answer fixed by its text's hash among
    // LocalResponder::freeAnswers(), a difficulty from its words.
    Truth freeTruth(std::string_view text) const;
    // The standardised readable part of a text's difficulty: each word
    // (maximal run of ASCII letters and digits, lower-cased) weighs a standard
    // normal draw keyed by (world seed, word); the sum over the text's words
    // divided by √words, standardised over the world's task prompts.
    double readable(std::string_view text) const;
    double pRight(std::string_view model, const Truth& truth) const;
    // The chance `model` is right on `task` to one who knows only the readable
    // part of its difficulty: pRight averaged over the hidden part, a standard
    // normal (81-point midpoint rule on ±4). What a router reading the prompt
    // perfectly could expect (bench routing's readable ceiling).
    double pRightReadable(std::string_view model, const Task& task) const;
    // The κ of the confidence rule, from the file's AUROC.
    double confidenceKappa() const { return m_kappa; }

private:
    double rawReadable(std::string_view text) const;
    std::vector<double> popularityFor(size_t options, std::string_view key) const;
    Truth truthFor(const Task& task) const;

    struct CallDraws;
    // The model's own answer to the truth's task; `right` says whether it is.
    std::string answerAs(std::string_view model, const Truth& truth, const CallDraws& draws, bool& right) const;
    std::string reply(const WorldPrompt& prompt, std::string_view model, const CallDraws& draws) const;
    std::string withConfidence(std::string lead, std::string_view answer, bool right, const CallDraws& draws) const;

    WorldSpec m_spec;
    std::shared_ptr<const TaskSet> m_tasks;
    double m_kappa = 1;
    double m_readableMean = 0;
    double m_readableSd = 1;
    std::unordered_map<const Task*, Truth> m_truths;
};

} // namespace conclave
