#pragma once

#include "conclave/model/Node.h"
#include "conclave/model/NodeKind.h"
#include "conclave/model/Price.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace conclave {

// A latency or length distribution given by its median and 95th percentile.
struct Distribution {
    double median = 0;
    double p95 = 0;

    friend bool operator==(const Distribution&, const Distribution&) = default;
};

// The stated confidence of a simulated answer: N(mean, sd), clamped to [0.05, 0.99];
// or, when quantiles are given, drawn from them: quantiles[i] is the
// confidence at share i / (n − 1) (n ≥ 2, non-decreasing), linear between.
struct ConfidenceDraw {
    double mean = 0;
    double sd = 0;
    std::vector<double> quantiles;

    friend bool operator==(const ConfidenceDraw&, const ConfidenceDraw&) = default;
};

// The stated confidence of right and of wrong answers (docs/simulator.md).
struct ConfidenceProfile {
    ConfidenceDraw right;
    ConfidenceDraw wrong;

    friend bool operator==(const ConfidenceProfile&, const ConfidenceProfile&) = default;
};

// How a synthesizer uses its candidates: pRightGivenRight[k] is the chance its
// answer is right when k of them are (the last entry for every larger k);
// selfAnswer is the share of its wrong answers that are none of theirs.
struct SynthesisProfile {
    std::vector<double> pRightGivenRight;
    double selfAnswer = 0;

    friend bool operator==(const SynthesisProfile&, const SynthesisProfile&) = default;
};

// Informative: an experiment a calibration read, and how many answers of the model it held.
struct CalibrationSource {
    std::string experiment;
    int64_t answers = 0;

    friend bool operator==(const CalibrationSource&, const CalibrationSource&) = default;
};

// A simulated model of the local-moe backend. Every field is optional so an
// inline profile in a team can override only what it names.
struct ModelProfile {
    std::optional<std::map<std::string, double>> skills;
    std::optional<Distribution> ttftMs;
    std::optional<Distribution> tokensPerS;
    std::optional<Distribution> outputTokens;
    std::optional<Price> pricePerMtok;
    std::optional<int64_t> contextTokens;
    std::optional<double> failureRate;
    // Among its wrong answers, the share that is a task's shared (most common) wrong answer.
    std::optional<double> errorAgreement;
    // The share of the latent's variance that belongs to the task (ItemBank::kShared when absent).
    std::optional<double> difficultyWeight;
    std::optional<ConfidenceProfile> confidence;
    std::optional<SynthesisProfile> synthesis;
    // Latency × (1 + loadSlope·(inflight − 1)).
    std::optional<double> loadSlope;
    // The chance that a retry is answered as the attempt before it was (its
    // latency, length and answer; a server error is drawn anew): 1 for an
    // endpoint that answers one request the same way every time, 0 (the
    // default) for one that samples afresh.
    std::optional<double> retryRepeat;
    // In a meeting turn that shows the members' earlier answers (debate,
    // round_robin), the chance that the member takes the most
    // common answer it is shown instead of answering on its own. Absent: the
    // built-in persuasion (peers' right answers persuade, wrong ones do not).
    std::optional<double> conformity;
    // The chance that two of the model's calls asked exactly the same (one
    // task, system prompt, prompt and seed: the same request again, within a
    // trial or on another seed) answer alike beyond what the task's difficulty
    // alone makes them: 1 for an endpoint that answers a request the same way
    // every time, 0 (the default) for one that samples afresh.
    std::optional<double> repeatAgreement;
    // Informative only (a calibration's evidence; the simulator ignores them):
    // the 95 % interval of each skill, and the scored answers behind it.
    std::optional<std::map<std::string, std::pair<double, double>>> skillsCi;
    std::optional<std::map<std::string, int64_t>> trials;
    // Informative only: which fields came from data, and from which experiments.
    std::optional<std::vector<std::string>> fitted;
    std::optional<std::vector<CalibrationSource>> calibratedFrom;
    nlohmann::json extra; // unknown keys; null when none

    // Whether it sets a field that models files of format 2 and teams of format 3 introduced.
    bool usesFormat2Fields() const
    {
        return difficultyWeight || confidence || synthesis || loadSlope || retryRepeat || conformity || repeatAgreement || fitted || calibratedFrom;
    }

    friend bool operator==(const ModelProfile&, const ModelProfile&) = default;
};

struct Backend {
    BackendKind kind = BackendKind::LocalMoe;

    // local-moe
    std::optional<int64_t> seed;
    std::optional<double> timeScale;
    std::optional<std::map<std::string, ModelProfile>> models;
    // A ModelsFile's path as written: relative to the team file's folder, or absolute.
    // Its profiles lie between the catalog's and the inline `models`. On an openai
    // backend (format 3) its models' skills feed only the gate (BackendFactory::resolveGateProfiles).
    std::optional<std::string> modelsFile;
    // Calls in flight on the simulated endpoint that are not the run's own: they add to each call's load.
    // (`max_concurrency`, below, also queues a local-moe backend's calls.)
    std::optional<int64_t> backgroundInflight;

    // openai
    std::optional<std::string> baseUrl;
    std::optional<std::string> apiKeyEnv;
    std::optional<int64_t> maxConcurrency;
    std::optional<int64_t> requestsPerMinute;
    std::optional<bool> stream;
    std::optional<std::string> maxTokensParam;
    std::optional<std::string> caFile;
    std::optional<int64_t> connectTimeoutMs;
    std::optional<std::map<std::string, std::string>> headers;
    std::optional<std::map<std::string, Price>> prices;

    // recorded (see docs/replay.md): the experiments whose calls it replays,
    // the store they are in (default: the command's), the designs of theirs
    // whose trials' calls it leaves out (a leave-one-design-out check), and
    // what a call that was not recorded does: "fail" (the default) or
    // "simulate" (on a local-moe simulator made from `seed`, `models_file`
    // and `models`). `max_concurrency` queues its calls as an endpoint would.
    std::optional<std::vector<std::string>> experiments;
    std::optional<std::string> db;
    std::optional<std::vector<std::string>> excludeDesigns;
    std::optional<std::string> onMissing;

    nlohmann::json extra; // unknown keys; null when none

    friend bool operator==(const Backend&, const Backend&) = default;
};

struct Defaults {
    std::optional<BackendName> backend;
    std::optional<std::string> model;
    std::optional<int64_t> timeoutMs;
    std::optional<int64_t> retries;
    std::optional<ModelParams> params;
    nlohmann::json extra; // unknown keys; null when none

    friend bool operator==(const Defaults&, const Defaults&) = default;
};

struct Budget {
    std::optional<double> maxCostUsd;
    std::optional<int64_t> maxTokens;
    std::optional<int64_t> maxWallMs;
    nlohmann::json extra; // unknown keys; null when none

    friend bool operator==(const Budget&, const Budget&) = default;
};

} // namespace conclave
