#pragma once

#include "conclave/diagnostics/Problem.h"
#include "conclave/model/Price.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// One model of a ground-truth world (docs/ground-truth-worlds.md has every field).
struct WorldModel {
    // P(right) = 1 / (1 + exp(−slope · (ability − difficulty))).
    double slope = 1.0;
    std::map<std::string, double, std::less<>> abilities; // per domain
    // Log-logistic latency: ttft's median and shape (larger: narrower); the
    // reply's output tokens are log-logistic too, with the same shape.
    double ttftMs = 400;
    double outputTokens = 150;
    double latencyShape = 4.0;
    double tokensPerS = 60;
    double loadSlope = 0; // latency × (1 + load_slope · (inflight − 1))
    Price pricePerMtok;   // USD per million tokens in and out

    // The ability in a domain; a domain the file does not list has the mean
    // of the model's abilities.
    double ability(std::string_view domain) const;
};

// What a world file sets: resources/bench/worlds/*.json.
struct WorldSpec {
    static constexpr int kFormat = 1;

    std::string name;
    uint64_t seed = 0;
    std::vector<std::string> taskSets; // bundled names; empty: every bundled set
    double readableShare = 0.5;        // r: the share of difficulty's variance readable from the prompt
    double difficultyShift = 0;        // added to every task's difficulty
    double wrongAnswerAlpha = 1.0;     // Dirichlet α over a task's wrong options
    double confidenceAuroc = 0.7;
    double confidenceFloor = 0.3;
    double confidenceCeiling = 0.95;
    double synthesisSelfAnswer = 0.2;  // a synthesizer answers on its own
    double synthesisRecognition = 0.5; // else it picks the right candidate when present
    double meetingConformity = 0.3;    // a meeting member takes its peers' most common answer
    double routeAccuracy = 0.8;        // an llm router picks the task's domain label
    double judgeAccuracy = 0.9;        // a judge's verdict is the true one
    std::map<std::string, WorldModel, std::less<>> models;

    struct ParseResult;
    static ParseResult fromJsonText(std::string_view text);
};

struct WorldSpec::ParseResult {
    std::optional<WorldSpec> spec; // set when there is no error
    std::vector<Problem> problems; // with JSON pointers into the file, or line:column
};

} // namespace conclave
