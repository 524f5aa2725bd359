#include "conclave/engine/ReplyParser.h"

#include "conclave/util/AsciiText.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace conclave {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

// Every line a reply is read by: those of its first ReplyParser::kMaxReplyBytes.
template <class F>
void forEachLine(std::string_view text, F f)
{
    text = ReplyParser::readPart(text);
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t end = text.find('\n', pos);
        f(text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
        if (end == std::string_view::npos)
            break;
        pos = end + 1;
    }
}

} // namespace

std::string ReplyParser::normalizeAnswer(std::string_view answer)
{
    std::string out;
    bool space = false;
    for (const char c : trim(answer)) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = true;
            continue;
        }
        if (space && !out.empty())
            out += ' ';
        space = false;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    while (!out.empty() && (out.back() == '.' || out.back() == '!'))
        out.pop_back();
    if (out.size() >= 2 && (out.front() == '"' || out.front() == '\'') && out.back() == out.front())
        out = out.substr(1, out.size() - 2);
    return out;
}

std::string_view ReplyParser::readPart(std::string_view reply)
{
    if (reply.size() <= kMaxReplyBytes)
        return reply;
    size_t end = kMaxReplyBytes;
    // Never end inside a character: step back over at most three continuation
    // bytes (10xxxxxx), the most a UTF-8 character has.
    for (int k = 0; k < 3 && (static_cast<unsigned char>(reply[end]) & 0xC0) == 0x80; ++k)
        --end;
    return reply.substr(0, end);
}

ParsedReply ReplyParser::parse(std::string_view text)
{
    ParsedReply reply;
    bool haveAnswer = false;
    std::string_view lastLine;
    forEachLine(text, [&](std::string_view line) {
        const auto t = trim(line);
        if (t.empty())
            return;
        const auto l = toLowerAscii(t.substr(0, std::min<size_t>(t.size(), 12)));
        if (l.starts_with("answer:")) {
            reply.answer = normalizeAnswer(t.substr(7));
            haveAnswer = true;
        } else if (l.starts_with("confidence:")) {
            const std::string number(trim(t.substr(11)));
            char* end = nullptr;
            const double c = std::strtod(number.c_str(), &end);
            // strtod also reads "nan" and "inf": a stated confidence is a finite number.
            if (end != number.c_str() && std::isfinite(c))
                reply.confidence = std::clamp(number.find('%') != std::string::npos ? c / 100.0 : c, 0.0, 1.0);
        } else {
            lastLine = t;
        }
    });
    if (!haveAnswer)
        reply.answer = normalizeAnswer(lastLine.substr(0, 200));
    reply.answerLine = haveAnswer;
    return reply;
}

std::string ReplyParser::routeLabel(std::string_view reply, const std::vector<std::string>& labels)
{
    reply = readPart(reply);
    const auto text = toLowerAscii(reply);
    // Prefer an exact reply, then the earliest label mentioned.
    const auto exact = normalizeAnswer(text);
    for (const auto& label : labels) {
        if (toLowerAscii(label) == exact)
            return label;
    }
    size_t best = std::string::npos;
    std::string chosen;
    for (const auto& label : labels) {
        const auto at = text.find(toLowerAscii(label));
        if (at != std::string::npos && at < best) {
            best = at;
            chosen = label;
        }
    }
    return chosen;
}

std::vector<std::string> ReplyParser::subtasks(std::string_view reply)
{
    return subtasksUpTo(reply, std::numeric_limits<size_t>::max()).subtasks;
}

SubtaskList ReplyParser::subtasksUpTo(std::string_view reply, size_t max)
{
    SubtaskList out;
    forEachLine(reply, [&](std::string_view line) {
        auto t = trim(line);
        size_t digits = 0;
        while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits])))
            ++digits;
        if (digits > 0 && digits < t.size() && (t[digits] == '.' || t[digits] == ')'))
            t = trim(t.substr(digits + 1));
        else if (t.starts_with("- "))
            t = trim(t.substr(2));
        if (t.empty())
            return;
        if (out.subtasks.size() < max)
            out.subtasks.emplace_back(t);
        else
            ++out.dropped;
    });
    return out;
}

} // namespace conclave
