#include "conclave/routing/PromptFeatures.h"

#include "conclave/local/Gate.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

constexpr std::string_view kOperators = "+-*/=<>^%";
constexpr size_t kMinGram = 3;
constexpr size_t kMaxGram = 5;
constexpr char kGramMark = '\x01';

double countFeature(size_t count)
{
    return std::log1p(static_cast<double>(count)) / std::log(1000.0);
}

// The text the character grams slide over: ASCII lower-cased, whitespace runs as one space.
std::string gramText(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    bool space = false;
    for (const char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            space = true;
            continue;
        }
        if (space && !out.empty())
            out += ' ';
        space = false;
        out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    return out;
}

template <typename Visit>
void forEachGram(const std::string& text, Visit&& visit)
{
    for (size_t n = kMinGram; n <= kMaxGram; ++n) {
        for (size_t i = 0; i + n <= text.size(); ++i)
            visit(std::string_view(text).substr(i, n));
    }
}

} // namespace

PromptFeatures::PromptFeatures(const Gate& gate) : m_gate(&gate) {}

uint32_t PromptFeatures::hashedBuckets() const
{
    return static_cast<uint32_t>(m_gate->buckets());
}

uint32_t PromptFeatures::dimension() const
{
    return domainOffset() + static_cast<uint32_t>(m_gate->domains().size());
}

void PromptFeatures::occurrences(std::string_view text, SparseVector& out) const
{
    const size_t buckets = m_gate->buckets();
    const size_t first = out.size();
    for (const uint32_t bucket : m_gate->featureBuckets(text))
        out.emplace_back(bucket, 1.0);
    const std::string grams = gramText(text);
    char marked[kMaxGram + 1];
    marked[0] = kGramMark;
    forEachGram(grams, [&](std::string_view gram) {
        std::copy(gram.begin(), gram.end(), marked + 1);
        out.emplace_back(Gate::bucketOf(std::string_view(marked, gram.size() + 1), buckets), 1.0);
    });
    const size_t hashed = out.size() - first;
    if (hashed > 0) {
        const double each = 1.0 / std::sqrt(static_cast<double>(hashed));
        for (size_t i = first; i < out.size(); ++i)
            out[i].second = each;
    }

    size_t digits = 0;
    size_t operators = 0;
    for (const char c : text) {
        digits += (c >= '0' && c <= '9') ? 1 : 0;
        operators += kOperators.find(c) != std::string_view::npos ? 1 : 0;
    }
    const auto base = static_cast<uint32_t>(buckets);
    out.emplace_back(base, countFeature(text.size()));
    out.emplace_back(base + 1, countFeature(digits));
    out.emplace_back(base + 2, countFeature(operators));
    const auto weights = m_gate->weigh(text);
    for (size_t d = 0; d < weights.size(); ++d)
        out.emplace_back(domainOffset() + static_cast<uint32_t>(d), weights[d]);
}

SparseVector PromptFeatures::vector(std::string_view text) const
{
    SparseVector raw;
    occurrences(text, raw);
    std::sort(raw.begin(), raw.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    SparseVector merged;
    merged.reserve(raw.size());
    for (const auto& [index, value] : raw) {
        if (!merged.empty() && merged.back().first == index)
            merged.back().second += value;
        else
            merged.emplace_back(index, value);
    }
    // Zero entries (a count of 0, a domain weighing nothing) carry nothing.
    std::erase_if(merged, [](const auto& entry) { return entry.second == 0.0; });
    return merged;
}

SparseVector PromptFeatures::domainOnly(std::string_view text) const
{
    SparseVector out;
    const auto weights = m_gate->weigh(text);
    for (size_t d = 0; d < weights.size(); ++d) {
        if (weights[d] != 0.0)
            out.emplace_back(domainOffset() + static_cast<uint32_t>(d), weights[d]);
    }
    return out;
}

std::vector<std::string> PromptFeatures::characterGrams(std::string_view text)
{
    std::vector<std::string> out;
    forEachGram(gramText(text), [&](std::string_view gram) { out.emplace_back(gram); });
    return out;
}

} // namespace conclave
