#pragma once

#include "conclave/engine/ModelBackend.h"
#include "conclave/local/CallResponder.h"
#include "conclave/local/Gate.h"
#include "conclave/local/ItemBank.h"
#include "conclave/local/ProfileGate.h"
#include "conclave/local/ResolvedProfile.h"
#include "conclave/local/TaskSet.h"
#include "conclave/model/Backend.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

namespace conclave {

// The local-moe simulator's decisions, separate from its timing machinery:
// given a request, it decides deterministically from (seed, model, task,
// caller, attempt) whether the call fails, whether the answer is right (the
// task set's ItemBank: hard tasks are hard for every model), which wrong
// answer it gives (WrongAnswers: errors agree), how confident it sounds, how
// many tokens it takes and how long it lasts. docs/simulator.md has the rules.
// It learns what a call is from the request's purpose and inputs, as the
// engine states them; of the prompt it reads only the length (tokens, the
// context window), never the wording.
class LocalResponder : public CallResponder {
public:
    using Profiles = ProfileGate::Profiles;

    LocalResponder(std::map<std::string, ResolvedProfile> profiles, std::shared_ptr<const Gate> gate,
                   std::shared_ptr<const TaskSet> tasks, uint64_t seed);
    // Profiles resolved once and shared by every run of a team.
    LocalResponder(std::shared_ptr<const Profiles> profiles, std::shared_ptr<const Gate> gate,
                   std::shared_ptr<const TaskSet> tasks, uint64_t seed);

    // Weighs the run's input once, before the run starts and the responder is shared.
    void prepareFor(std::string_view runInput);

    SimulatedCall respond(const ModelRequest& request) const override;
    // The model's price_per_mtok applied to the tokens; 0 for a model without a profile.
    double costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const override;
    const ResolvedProfile* profile(std::string_view model) const;
    // The gate's score of each model for a prompt (ProfileGate over this responder's profiles).
    std::vector<double> gateScores(std::string_view prompt, const std::vector<std::string>& models) const;

    // The catalog's profiles with a team's inline overrides applied field by field.
    static std::map<std::string, ResolvedProfile> resolve(const std::map<std::string, ModelProfile>& catalog,
                                                          const std::map<std::string, ModelProfile>& overrides);

    // The sentences a free prompt's answers are drawn from; its hidden best
    // answer is the one its text's hash picks.
    static const std::vector<std::string>& freeAnswers();

private:
    struct Draws;
    // What a call is about: a task of the set, or a task made for a question
    // the simulator computes (ArithmeticQuestion) or for a free prompt.
    struct Item {
        const Task* task = nullptr;
        std::shared_ptr<const Task> made{}; // task points here when the item was made
        bool free = false;                  // a free prompt: skill under the gate's weights
        std::string text{};                 // a free prompt's text
    };
    Item itemFor(std::string_view text) const;
    // The item a call is about: the graded question's in a judge run, else
    // its task's (a task of the set, a computed question, the run's own item).
    Item itemFor(const ModelRequest& request) const;
    const ItemBank& items() const;
    // The task's difficulty in this trial (ItemBank::difficulty; per trial when the set says so).
    double difficultyOf(const Task& task) const;
    // The chance that `profile` answers the item right, before any persuasion.
    double pCorrect(const Item& item, const ResolvedProfile& profile) const;

    // peers: the meeting's turns the model is shown (none outside a meeting).
    std::string answer(const std::vector<Candidate>& peers, const ResolvedProfile& profile, const Item& item,
                       const Draws& draws, double& confidence) const;
    std::string chooseRoute(const std::vector<std::string>& labels, std::string_view requestText,
                            const ResolvedProfile& profile, const Draws& draws) const;
    static std::string decompose(std::string_view task, size_t maxSubtasks);
    std::string synthesize(const std::vector<Candidate>& candidates, const ResolvedProfile& profile, const Item& item,
                           const Draws& draws, double& confidence) const;
    static std::string combine(const std::vector<Candidate>& parts, double& confidence);
    std::string judge(const JudgeCase& judged, const Item& item, const ResolvedProfile& profile, const Draws& draws,
                      double& confidence) const;
    // N(mean, sd) of the profile's right or wrong answers, clamped to [0.05, 0.99].
    static double confidenceFor(bool correct, const ResolvedProfile& profile, const Draws& draws);

    // A model's chance of being right on a free prompt: its skills under the gate's weights.
    double expectedSkill(std::string_view text, const ResolvedProfile& profile) const;
    double skillUnder(const std::vector<double>& weights, const ResolvedProfile& profile) const;

    std::shared_ptr<const Profiles> m_profiles;
    std::string m_runInput;
    Item m_runItem;                                                // what the run's input is about
    std::unordered_map<const ResolvedProfile*, double> m_runSkill; // expectedSkill() of the run's input
    std::shared_ptr<const Gate> m_gate;
    std::shared_ptr<const TaskSet> m_tasks;
    uint64_t m_seed;
    ProfileGate m_gateScores; // over m_profiles under m_gate, made once: gateScores() is on every gated route
};

} // namespace conclave
