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
    // Informative only (a calibration's evidence; the simulator ignores them):
    // the 95 % interval of each skill, and the scored answers behind it.
    std::optional<std::map<std::string, std::pair<double, double>>> skillsCi;
    std::optional<std::map<std::string, int64_t>> trials;
    nlohmann::json extra; // unknown keys; null when none

    friend bool operator==(const ModelProfile&, const ModelProfile&) = default;
};

struct Backend {
    BackendKind kind = BackendKind::LocalMoe;

    // local-moe
    std::optional<int64_t> seed;
    std::optional<double> timeScale;
    std::optional<std::map<std::string, ModelProfile>> models;
    // A ModelsFile's path as written: relative to the team file's folder, or absolute.
    // Its profiles lie between the catalog's and the inline `models`.
    std::optional<std::string> modelsFile;

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
    // the store they are in (default: the command's), and what a call that
    // was not recorded does: "fail" (the default) or "simulate" (on a
    // local-moe simulator made from `seed`, `models_file` and `models`).
    // `max_concurrency` queues its calls as an endpoint would.
    std::optional<std::vector<std::string>> experiments;
    std::optional<std::string> db;
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
