#include "conclave/local/TaskSet.h"

#include "conclave/io/ContentHash.h"

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

// TaskSet's readings of text that the loader and the scorer share: a
// numeric answer, and the set's content fingerprint.

namespace conclave {

std::optional<double> TaskSet::parseNumber(std::string_view text)
{
    constexpr std::string_view kMinus = "\xE2\x88\x92"; // U+2212
    std::string plain;
    if (text.starts_with(kMinus)) {
        plain = "-";
        text.remove_prefix(kMinus.size());
    } else if (text.starts_with('-') || text.starts_with('+')) {
        if (text.front() == '-')
            plain = "-";
        text.remove_prefix(1);
    }
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    // The integer part: digits, or groups of three after the first comma.
    size_t i = 0;
    size_t group = 0; // digits since the last comma, or since the start
    bool grouped = false;
    for (; i < text.size() && (isDigit(text[i]) || text[i] == ','); ++i) {
        if (text[i] == ',') {
            if (group == 0 || (grouped && group != 3) || (!grouped && group > 3))
                return std::nullopt;
            grouped = true;
            group = 0;
            continue;
        }
        plain += text[i];
        ++group;
    }
    if (grouped && group != 3)
        return std::nullopt;
    size_t digits = plain.size() - (plain.starts_with('-') ? 1 : 0);
    if (i < text.size() && text[i] == '.') {
        plain += '.';
        for (++i; i < text.size() && isDigit(text[i]); ++i, ++digits)
            plain += text[i];
    }
    if (digits == 0)
        return std::nullopt;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        plain += 'e';
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            plain += text[i++];
        const size_t start = i;
        for (; i < text.size() && isDigit(text[i]); ++i)
            plain += text[i];
        if (i == start)
            return std::nullopt;
    }
    if (i != text.size())
        return std::nullopt;
    double value = 0;
    const auto [end, error] = std::from_chars(plain.data(), plain.data() + plain.size(), value);
    if (error != std::errc() || end != plain.data() + plain.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::string TaskSet::contentHash() const
{
    // Each field as its length and bytes, so that no two different task lists
    // give the same text.
    std::string text;
    const auto field = [&](std::string_view value) {
        text += std::to_string(value.size());
        text += ':';
        text += value;
    };
    for (const auto& task : m_tasks) {
        field(task.id);
        field(task.domain);
        field(task.prompt);
        field(task.answer);
        text += 'c' + std::to_string(task.choices.size());
        for (const auto& choice : task.choices)
            field(choice);
        if (task.tolerance) {
            char buffer[32];
            const auto end = std::to_chars(buffer, buffer + sizeof buffer, *task.tolerance).ptr;
            text += 't';
            field(std::string_view(buffer, static_cast<size_t>(end - buffer)));
        } else {
            text += 'n';
        }
        if (task.difficulty) { // absent adds nothing: older sets keep their hashes
            char buffer[32];
            const auto end = std::to_chars(buffer, buffer + sizeof buffer, *task.difficulty).ptr;
            text += 'd';
            field(std::string_view(buffer, static_cast<size_t>(end - buffer)));
        }
        text += 'm' + std::to_string(task.metadata.size());
        for (const auto& [key, value] : task.metadata) {
            field(key);
            field(value);
        }
        text += ';';
    }
    return conclave::contentHash(text);
}

} // namespace conclave
