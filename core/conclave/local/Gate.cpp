#include "conclave/local/Gate.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"

#include <algorithm>
#include <cmath>

namespace conclave {

// Features (scripts/train_gate.py computes exactly the same ones):
// - words: runs of ASCII letters and digits, lower-cased; every other byte
//   separates words;
// - symbols: each of + - * / = % ^ < > ( ) [ ] { } ; _ ` is a word of its own,
//   and the UTF-8 signs × and ÷ are read as * and /;
// - bigrams: "w1 w2" for every two consecutive words.
// features() lists the words, then the bigrams, each in text order.

namespace {

constexpr uint64_t kFnvOffset = 14695981039346656037ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;
constexpr size_t kMinBuckets = 16;
constexpr size_t kMaxBuckets = 1048576;
constexpr size_t kMaxDomains = 32;
// Bounded weights keep every logit finite, whatever the prompt.
constexpr double kMaxWeight = 1e6;

constexpr std::string_view kSymbols = "+-*/=%^<>()[]{};_`";

uint64_t fnvAdd(uint64_t hash, std::string_view bytes)
{
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= kFnvPrime;
    }
    return hash;
}

bool isWordByte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// The words of a text, lower-cased, as views into one buffer.
struct Words {
    std::string buffer;
    std::vector<std::pair<size_t, size_t>> spans; // offset, length into buffer

    std::string_view operator[](size_t i) const
    {
        return std::string_view(buffer).substr(spans[i].first, spans[i].second);
    }
    size_t size() const { return spans.size(); }
};

Words splitWords(std::string_view text)
{
    Words words;
    words.buffer.reserve(text.size());
    size_t start = std::string::npos;
    const auto endWord = [&] {
        if (start != std::string::npos) {
            words.spans.emplace_back(start, words.buffer.size() - start);
            start = std::string::npos;
        }
    };
    const auto symbol = [&](char c) {
        words.spans.emplace_back(words.buffer.size(), 1);
        words.buffer += c;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (isWordByte(c)) {
            if (start == std::string::npos)
                start = words.buffer.size();
            words.buffer += lower(c);
            continue;
        }
        endWord();
        if (kSymbols.find(c) != std::string_view::npos) {
            symbol(c);
        } else if (c == '\xC3' && i + 1 < text.size() && (text[i + 1] == '\x97' || text[i + 1] == '\xB7')) {
            symbol(text[i + 1] == '\x97' ? '*' : '/');
            ++i;
        }
    }
    endWord();
    return words;
}

Problem problemAt(std::string pointer, std::string message)
{
    Problem p;
    p.pointer = std::move(pointer);
    p.message = std::move(message);
    return p;
}

std::string got(const nlohmann::json& value)
{
    return ", got " + describeJsonValue(value);
}

std::optional<double> boundedNumber(const nlohmann::json& value, const std::string& pointer,
                                    std::vector<Problem>& problems)
{
    if (value.is_number()) {
        const double number = value.get<double>();
        if (std::isfinite(number) && std::abs(number) <= kMaxWeight)
            return number;
    }
    problems.push_back(problemAt(pointer, "expected a number from -1000000 to 1000000" + got(value)));
    return std::nullopt;
}

} // namespace

uint32_t Gate::bucketOf(std::string_view feature, size_t buckets)
{
    return static_cast<uint32_t>(fnvAdd(kFnvOffset, feature) % buckets);
}

std::vector<std::string> Gate::features(std::string_view text)
{
    const Words words = splitWords(text);
    std::vector<std::string> out;
    if (words.size() == 0)
        return out;
    out.reserve(2 * words.size() - 1);
    for (size_t i = 0; i < words.size(); ++i)
        out.emplace_back(words[i]);
    for (size_t i = 1; i < words.size(); ++i) {
        std::string bigram(words[i - 1]);
        bigram += ' ';
        bigram += words[i];
        out.push_back(std::move(bigram));
    }
    return out;
}

std::vector<uint32_t> Gate::featureBuckets(std::string_view text) const
{
    const Words words = splitWords(text);
    std::vector<uint32_t> out;
    if (words.size() == 0)
        return out;
    out.resize(2 * words.size() - 1);
    uint64_t previous = 0;
    for (size_t i = 0; i < words.size(); ++i) {
        const uint64_t hash = fnvAdd(kFnvOffset, words[i]);
        out[i] = static_cast<uint32_t>(hash % m_buckets);
        if (i > 0)
            out[words.size() + i - 1] = static_cast<uint32_t>(fnvAdd(fnvAdd(previous, " "), words[i]) % m_buckets);
        previous = hash;
    }
    return out;
}

std::vector<double> Gate::weigh(std::string_view prompt) const
{
    const size_t domainCount = m_domains.size();
    std::vector<double> logits(domainCount, 0.0);
    const Words words = splitWords(prompt);
    if (words.size() > 0) {
        // The features' buckets, hashed without building the bigram strings.
        const auto add = [&](uint64_t hash) {
            const size_t bucket = hash % m_buckets;
            for (size_t d = 0; d < domainCount; ++d)
                logits[d] += m_weights[d][bucket];
        };
        uint64_t previous = 0;
        for (size_t i = 0; i < words.size(); ++i) {
            const uint64_t hash = fnvAdd(kFnvOffset, words[i]);
            add(hash);
            if (i > 0)
                add(fnvAdd(fnvAdd(previous, " "), words[i]));
            previous = hash;
        }
        // Counts scaled by 1/sqrt(features), so a long prompt does not saturate the softmax.
        const double scale = 1.0 / std::sqrt(static_cast<double>(2 * words.size() - 1));
        for (double& logit : logits)
            logit *= scale;
    }
    for (size_t d = 0; d < domainCount; ++d)
        logits[d] += m_bias[d];

    const double top = *std::max_element(logits.begin(), logits.end());
    double total = 0.0;
    for (double& logit : logits) {
        logit = std::exp(logit - top);
        total += logit;
    }
    for (double& logit : logits)
        logit /= total;
    return logits;
}

Gate::LoadResult Gate::fromJsonText(std::string_view text)
{
    LoadResult result;
    auto parsed = parseJsonText(text);
    result.problems = std::move(parsed.problems);
    if (!parsed.value)
        return result;
    const auto& doc = *parsed.value;
    auto& problems = result.problems;
    if (!doc.is_object()) {
        problems.push_back(problemAt("", "expected a gate object with buckets, domains, bias and weights" + got(doc)));
        return result;
    }

    Gate gate;
    for (const auto& [key, value] : doc.items()) {
        if (key != "buckets" && key != "domains" && key != "bias" && key != "weights") {
            Problem p = problemAt(childPointer("", key), "unknown key; ignored");
            p.severity = Severity::Warning;
            problems.push_back(std::move(p));
        }
    }

    const auto buckets = doc.find("buckets");
    if (buckets == doc.end()) {
        problems.push_back(problemAt("/buckets", "missing; expected an integer from 16 to 1048576"));
    } else if (!buckets->is_number_integer() || *buckets < static_cast<int64_t>(kMinBuckets) ||
               *buckets > static_cast<int64_t>(kMaxBuckets)) {
        problems.push_back(problemAt("/buckets", "expected an integer from 16 to 1048576" + got(*buckets)));
    } else {
        gate.m_buckets = buckets->get<size_t>();
    }

    const auto domains = doc.find("domains");
    if (domains == doc.end()) {
        problems.push_back(problemAt("/domains", "missing; expected an array of domain names"));
    } else if (!domains->is_array() || domains->empty() || domains->size() > kMaxDomains) {
        problems.push_back(problemAt("/domains", "expected an array of 1 to 32 domain names" + got(*domains)));
    } else {
        for (size_t i = 0; i < domains->size(); ++i) {
            const auto& name = (*domains)[i];
            const auto pointer = childPointer("/domains", i);
            if (!name.is_string() || name.get_ref<const std::string&>().empty()) {
                problems.push_back(problemAt(pointer, "expected a domain name" + got(name)));
                continue;
            }
            const auto& domain = name.get_ref<const std::string&>();
            if (std::find(gate.m_domains.begin(), gate.m_domains.end(), domain) != gate.m_domains.end())
                problems.push_back(problemAt(pointer, "duplicate domain " + describeJsonValue(name)));
            else
                gate.m_domains.push_back(domain);
        }
    }
    if (hasErrors(problems))
        return result;

    const auto domainIndex = [&](const std::string& name) -> std::optional<size_t> {
        const auto it = std::find(gate.m_domains.begin(), gate.m_domains.end(), name);
        if (it == gate.m_domains.end())
            return std::nullopt;
        return static_cast<size_t>(it - gate.m_domains.begin());
    };
    const auto unknownDomain = [&](const std::string& pointer) {
        std::string known;
        for (const auto& name : gate.m_domains)
            known += (known.empty() ? "" : ", ") + name;
        problems.push_back(problemAt(pointer, "unknown domain; the domains are " + known));
    };

    gate.m_bias.assign(gate.m_domains.size(), 0.0);
    const auto bias = doc.find("bias");
    if (bias != doc.end()) {
        if (!bias->is_object()) {
            problems.push_back(problemAt("/bias", "expected an object of numbers by domain" + got(*bias)));
        } else {
            for (const auto& [name, value] : bias->items()) {
                const auto pointer = childPointer("/bias", name);
                if (const auto d = domainIndex(name)) {
                    if (const auto number = boundedNumber(value, pointer, problems))
                        gate.m_bias[*d] = *number;
                } else {
                    unknownDomain(pointer);
                }
            }
        }
    }

    gate.m_weights.assign(gate.m_domains.size(), std::vector<double>(gate.m_buckets, 0.0));
    const auto weights = doc.find("weights");
    if (weights == doc.end()) {
        problems.push_back(problemAt("/weights", "missing; expected an object of feature weights by domain"));
    } else if (!weights->is_object()) {
        problems.push_back(problemAt("/weights", "expected an object of feature weights by domain" + got(*weights)));
    } else {
        for (const auto& [name, features] : weights->items()) {
            const auto pointer = childPointer("/weights", name);
            const auto d = domainIndex(name);
            if (!d) {
                unknownDomain(pointer);
            } else if (!features.is_object()) {
                problems.push_back(problemAt(pointer, "expected an object of feature weights" + got(features)));
            } else {
                // Features that share a bucket add up, exactly as they would at run time.
                for (const auto& [feature, value] : features.items()) {
                    if (const auto number = boundedNumber(value, childPointer(pointer, feature), problems))
                        gate.m_weights[*d][bucketOf(feature, gate.m_buckets)] += *number;
                }
            }
        }
    }

    if (!hasErrors(problems))
        result.gate = std::move(gate);
    return result;
}

Gate::LoadResult Gate::load(const std::filesystem::path& path)
{
    return parseTextFile<LoadResult>(path, JsonLimits{}.maxBytes,
                                     [](std::string_view text) { return fromJsonText(text); });
}

} // namespace conclave
