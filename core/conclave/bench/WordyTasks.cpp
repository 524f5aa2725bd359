#include "conclave/bench/WordyTasks.h"

#include "conclave/engine/DeterministicRandom.h"

#include <array>
#include <string>
#include <vector>

namespace conclave {

namespace {

constexpr std::array<const char*, 16> kVerbs{"compare", "rank",    "estimate", "classify", "judge",  "weigh",
                                             "sort",    "measure", "check",    "explain",  "assess", "predict",
                                             "find",    "choose",  "identify", "evaluate"};
constexpr std::array<const char*, 48> kAdjectives{
    "heavy",  "light",   "bright", "dim",     "narrow", "broad",  "ancient", "recent", "hollow", "solid",
    "rapid",  "slow",    "bitter", "sweet",   "frozen", "molten", "quiet",   "loud",   "sparse", "dense",
    "curved", "flat",    "hidden", "visible", "rural",  "urban",  "coastal", "inland", "minor",  "major",
    "early",  "late",    "silver", "golden",  "wooden", "glass",  "steep",   "gentle", "random", "ordered",
    "prime",  "compound", "linear", "nested",  "formal", "casual", "legal",   "medical"};
constexpr std::array<const char*, 48> kNouns{
    "river",  "bridge",  "engine",  "forest", "market",  "signal",  "theorem", "sonnet", "ledger", "harbor",
    "crystal", "orbit",  "pendulum", "glacier", "lattice", "grammar", "sequence", "matrix", "protein", "tariff",
    "ballad", "canal",   "comet",   "diode",  "fossil",  "gear",    "hinge",   "island", "journal", "kernel",
    "lens",   "magnet",  "needle",  "oracle", "parcel",  "quarry",  "reactor", "saddle", "turbine", "valve",
    "wagon",  "yeast",   "zenith",  "anchor", "beacon",  "cipher",  "dialect", "ember"};
constexpr std::array<const char*, 5> kDomains{"math", "code", "facts", "reasoning", "writing"};
constexpr std::array<const char*, 5> kCues{"Work it out step by step.", "Think about how a program would do it.",
                                           "Recall what is known.", "Reason it through.",
                                           "Answer as a careful writer would."};

} // namespace

TaskSet WordyTasks::generate(size_t count, uint64_t seed)
{
    using R = DeterministicRandom;
    std::vector<Task> tasks;
    tasks.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        const auto key = R::key({"wordy", std::to_string(i)}, seed);
        uint64_t stream = 0;
        const auto pick = [&](size_t n) { return size_t(R::unit(key, stream++) * double(n)) % n; };
        const size_t domain = i % kDomains.size();
        std::string prompt = kVerbs[pick(kVerbs.size())];
        prompt[0] = static_cast<char>(prompt[0] - 'a' + 'A');
        const size_t phrases = 2 + pick(2);
        for (size_t p = 0; p < phrases; ++p) {
            prompt += p == 0 ? " the " : (p + 1 == phrases ? " and the " : ", the ");
            prompt += std::string(kAdjectives[pick(kAdjectives.size())]) + " " + kNouns[pick(kNouns.size())];
        }
        prompt += ". ";
        prompt += kCues[domain];
        std::vector<std::string> choices;
        for (const char* letter : {"A", "B", "C", "D"})
            choices.push_back(std::string(letter) + ": the " + kNouns[pick(kNouns.size())]);
        const size_t answer = pick(choices.size());
        prompt += "\nOptions:";
        for (const auto& choice : choices)
            prompt += "\n" + choice;
        // Ids that carry nothing readable: the index and the set's seed.
        tasks.push_back(Task{.id = "w" + std::to_string(seed) + "-" + std::to_string(i),
                             .domain = kDomains[domain],
                             .prompt = std::move(prompt),
                             .answer = std::string(1, char('A' + answer)),
                             .choices = {"A", "B", "C", "D"}});
    }
    auto loaded = TaskSet::fromJsonLines(TaskSet::toJsonl(tasks));
    return std::move(*loaded.tasks);
}

} // namespace conclave
