#include "conclave/io/JsonText.h"

#include <cstdio>
#include <string>

namespace conclave {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

Problem syntaxProblem(std::string_view text, size_t offset, std::string message)
{
    const auto [line, column] = lineColumnAt(text, offset);
    Problem p;
    p.message = std::move(message);
    p.line = line;
    p.column = column;
    return p;
}

// The length of the valid UTF-8 sequence starting at text[i] (0 if invalid).
size_t utf8Length(std::string_view text, size_t i)
{
    const auto byte = static_cast<unsigned char>(text[i]);
    const size_t n = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte < 0xE0 ? 2 : 0;
    if (n == 0 || i + n > text.size())
        return 0;
    for (size_t k = 1; k < n; ++k) {
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
            return 0;
    }
    return n;
}

std::string printable(std::string_view text)
{
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x80) {
            if (const size_t n = utf8Length(text, i)) {
                out.append(text.substr(i, n));
                i += n - 1;
                continue;
            }
        }
        if (byte < 0x20 || byte >= 0x7F) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\x%02X", byte);
            out += buffer;
        } else {
            out += text[i];
        }
    }
    return out;
}

// nlohmann's message reads "[json.exception.parse_error.101] parse error at
// line 1, column 2: syntax error while ..."; keep what follows the location.
std::string parserMessageUncut(const std::string& what);

std::string cutLastRead(std::string message)
{
    // "...; last read: '<token>'" can quote a whole unterminated string.
    constexpr std::string_view kMarker = "last read: '";
    constexpr size_t kMax = 40;
    const auto at = message.find(kMarker);
    if (at == std::string::npos)
        return message;
    const size_t start = at + kMarker.size();
    size_t end = message.find("'; ", start);
    if (end == std::string::npos)
        end = !message.empty() && message.back() == '\'' ? message.size() - 1 : message.size();
    if (end > start + kMax)
        message = message.substr(0, start + kMax) + "..." + message.substr(end);
    return message;
}

std::string parserMessage(const std::string& what)
{
    return cutLastRead(parserMessageUncut(what));
}

std::string parserMessageUncut(const std::string& what)
{
    const auto column = what.find("column ");
    if (column != std::string::npos) {
        const auto colon = what.find(": ", column);
        if (colon != std::string::npos)
            return printable(what.substr(colon + 2));
    }
    const auto bracket = what.find("] ");
    return printable(bracket == std::string::npos ? what : what.substr(bracket + 2));
}

// Scans brackets outside strings so that absurd nesting is refused before any
// parser recursion or allocation happens.
std::optional<size_t> offsetBeyondDepth(std::string_view text, size_t maxDepth)
{
    size_t depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

// The parser reports the last byte it read; for a string token that is its
// closing quote, and people look for the opening one.
size_t tokenStart(std::string_view text, size_t offset)
{
    if (offset >= text.size() || text[offset] != '"' || offset == 0)
        return offset;
    for (size_t i = offset; i-- > 0;) {
        if (text[i] == '"') {
            size_t backslashes = 0;
            for (size_t j = i; j-- > 0 && text[j] == '\\';)
                ++backslashes;
            if (backslashes % 2 == 0)
                return i;
        }
        if (text[i] == '\n')
            break;
    }
    return offset;
}

void checkStringLengths(const nlohmann::json& value, const std::string& pointer, size_t limit,
                        std::vector<Problem>& problems)
{
    const auto tooLong = [&](size_t size, const std::string& where, std::string_view what) {
        Problem p;
        p.pointer = where;
        p.message = std::string(what) + " is " + std::to_string(size) + " bytes long; the limit is " +
                    std::to_string(limit);
        problems.push_back(std::move(p));
    };
    if (value.is_string()) {
        const auto& s = value.get_ref<const std::string&>();
        if (s.size() > limit)
            tooLong(s.size(), pointer, "string");
    } else if (value.is_object()) {
        for (const auto& [key, child] : value.items()) {
            if (key.size() > limit) {
                tooLong(key.size(), pointer, "a key");
                continue;
            }
            checkStringLengths(child, childPointer(pointer, key), limit, problems);
        }
    } else if (value.is_array()) {
        for (size_t i = 0; i < value.size(); ++i)
            checkStringLengths(value[i], childPointer(pointer, i), limit, problems);
    }
}

template <class Json> Json parseQuietly(std::string_view text, size_t maxDepth)
{
    if (offsetBeyondDepth(text, maxDepth))
        return Json(Json::value_t::discarded);
    return Json::parse(text.begin(), text.end(), nullptr, false);
}

} // namespace

nlohmann::json parseJsonQuietly(std::string_view text, size_t maxDepth)
{
    return parseQuietly<nlohmann::json>(text, maxDepth);
}

nlohmann::ordered_json parseOrderedJsonQuietly(std::string_view text, size_t maxDepth)
{
    return parseQuietly<nlohmann::ordered_json>(text, maxDepth);
}

std::string printableText(std::string_view text) { return printable(text); }

std::pair<int, int> lineColumnAt(std::string_view text, size_t offset)
{
    offset = std::min(offset, text.size());
    int line = 1;
    size_t lineStart = 0;
    for (size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return {line, static_cast<int>(offset - lineStart) + 1};
}

std::string describeJsonValue(const nlohmann::json& value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string: {
        const auto& s = value.get_ref<const std::string&>();
        constexpr size_t kMax = 40;
        if (s.size() <= kMax)
            return '"' + printable(s) + '"';
        return '"' + printable(s.substr(0, kMax)) + "...\" (" + std::to_string(s.size()) + " bytes)";
    }
    case nlohmann::json::value_t::discarded:
        return "nothing";
    default:
        return value.dump();
    }
}

ParsedJson parseJsonText(std::string_view text, const JsonLimits& limits)
{
    ParsedJson result;
    if (text.size() > limits.maxBytes) {
        Problem p;
        p.message = "the file is " + std::to_string(text.size()) + " bytes; the limit is " +
                    std::to_string(limits.maxBytes);
        result.problems.push_back(std::move(p));
        return result;
    }

    std::string_view body = text;
    size_t bodyOffset = 0;
    if (body.starts_with(kBom)) {
        Problem p = syntaxProblem(text, 0, "the file starts with a UTF-8 byte order mark; it is dropped on save");
        p.severity = Severity::Warning;
        result.problems.push_back(std::move(p));
        body.remove_prefix(kBom.size());
        bodyOffset = kBom.size();
    }

    if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        result.problems.push_back(syntaxProblem(text, 0, "the file is empty; expected a JSON object"));
        return result;
    }

    if (const auto deep = offsetBeyondDepth(body, limits.maxDepth)) {
        result.problems.push_back(syntaxProblem(text, bodyOffset + *deep,
                                                "nesting is deeper than " + std::to_string(limits.maxDepth) +
                                                    " levels"));
        return result;
    }

    try {
        result.value = nlohmann::json::parse(body.begin(), body.end(), nullptr, true, false);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte counts from 1 and points at the last byte read.
        const size_t offset = bodyOffset + tokenStart(body, e.byte > 0 ? e.byte - 1 : 0);
        result.problems.push_back(syntaxProblem(text, offset, parserMessage(e.what())));
        return result;
    } catch (const nlohmann::json::out_of_range& e) {
        // "number overflow parsing '1e400'" carries no position; find the number.
        const std::string what = e.what();
        size_t offset = 0;
        const auto quote = what.find('\'');
        if (quote != std::string::npos) {
            const auto token = what.substr(quote + 1, what.rfind('\'') - quote - 1);
            const auto at = body.find(token);
            offset = at == std::string_view::npos ? 0 : bodyOffset + at;
        }
        result.problems.push_back(syntaxProblem(text, offset, parserMessage(what)));
        return result;
    } catch (const nlohmann::json::exception& e) {
        result.problems.push_back(syntaxProblem(text, 0, parserMessage(e.what())));
        return result;
    }

    checkStringLengths(*result.value, "", limits.maxStringBytes, result.problems);
    if (hasErrors(result.problems))
        result.value.reset();
    return result;
}

} // namespace conclave
