#pragma once

#include "conclave/diagnostics/Problem.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// The local-moe backend's mixture-of-experts gate: a prompt becomes a vector
// of hashed word and word-bigram features, a weight matrix turns it into one
// logit per domain, and a softmax turns the logits into domain weights.
// Immutable after loading, so one Gate is shared by every run and thread.
class Gate {
public:
    struct LoadResult;

    // resources/models/gate.json
    static LoadResult load(const std::filesystem::path& path);
    static LoadResult fromJsonText(std::string_view text);

    const std::vector<std::string>& domains() const { return m_domains; }
    size_t buckets() const { return m_buckets; }

    // Domain weights for a prompt, in domains() order, summing to 1: a softmax
    // of bias + weights · (feature counts / sqrt(number of features)).
    std::vector<double> weigh(std::string_view prompt) const;

    // The bucket of one feature ("word" or "word1 word2"), as used at load and at run time.
    static uint32_t bucketOf(std::string_view feature, size_t buckets);

    // The lower-cased word and bigram features of a text, in order: the words
    // (ASCII letter-and-digit runs, and single symbols such as + = ( ; that
    // carry domain meaning), then the bigrams "w1 w2". Gate.cpp states the exact
    // rules; scripts/train_gate.py, which writes gate.json, mirrors them.
    static std::vector<std::string> features(std::string_view text);
    // The buckets of features(text), in that order, hashed without building the strings.
    std::vector<uint32_t> featureBuckets(std::string_view text) const;

private:
    size_t m_buckets = 0;
    std::vector<std::string> m_domains;
    std::vector<double> m_bias;                 // one per domain
    std::vector<std::vector<double>> m_weights; // [domain][bucket]
};

struct Gate::LoadResult {
    std::optional<Gate> gate;
    std::vector<Problem> problems;
};

} // namespace conclave
