#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace conclave {

class Gate;

// A sparse feature vector: (index, value) pairs with strictly ascending indices.
using SparseVector = std::vector<std::pair<uint32_t, double>>;

// What a learned router or cascade scorer reads of a prompt: the run's input
// only (never a task id or a task set's domain label, which `run`, `serve` and
// the studio do not have). Indices:
//   [0, B)            hashed features in the gate's B buckets (Gate::bucketOf):
//                     the gate's words and bigrams (Gate::features) and the
//                     prompt's character 3-, 4- and 5-grams (ASCII lower-cased,
//                     every whitespace run read as one space), a gram hashed
//                     behind the byte 0x01 so "the" the word and "the" the
//                     gram differ. Each occurrence adds 1/sqrt(N), N the
//                     prompt's occurrences of all three kinds;
//   B + 0, 1, 2       ln(1 + x) / ln(1000) of its length in bytes, its digits
//                     and its operator characters (+ - * / = < > ^ %);
//   B + 3 + d         the gate's weight of domain d (Gate::weigh).
// The gate is borrowed: it must outlive this object. Immutable; thread-safe.
class PromptFeatures {
public:
    static constexpr uint32_t kCountFeatures = 3;

    explicit PromptFeatures(const Gate& gate);

    // The number of indices: B + 3 + the gate's domains.
    uint32_t dimension() const;
    uint32_t hashedBuckets() const;
    uint32_t domainOffset() const { return hashedBuckets() + kCountFeatures; }

    // Every occurrence appended to `out` as it comes, hashed ones repeated,
    // in no order: enough for a dot product, and cheaper than sorting.
    void occurrences(std::string_view text, SparseVector& out) const;

    // The same, merged into a SparseVector.
    SparseVector vector(std::string_view text) const;
    // Only the gate's domain weights, at their own indices: what the
    // "adds nothing over the domain" comparison trains on.
    SparseVector domainOnly(std::string_view text) const;

    // The hashed character grams of a text, for tests and docs: each gram's text.
    static std::vector<std::string> characterGrams(std::string_view text);

private:
    const Gate* m_gate;
};

} // namespace conclave
