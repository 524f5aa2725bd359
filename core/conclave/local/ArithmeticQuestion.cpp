#include "conclave/local/ArithmeticQuestion.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <vector>

namespace conclave {

namespace {

// The text lower-cased, with "−", "×" and "÷" as the ASCII '-', '*', '/'.
std::string simplified(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const auto rest = text.substr(i);
        if (rest.starts_with("\xE2\x88\x92")) { // U+2212 minus
            out += '-';
            i += 2;
        } else if (rest.starts_with("\xC3\x97")) { // ×
            out += '*';
            i += 1;
        } else if (rest.starts_with("\xC3\xB7")) { // ÷
            out += '/';
            i += 1;
        } else {
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
        }
    }
    return out;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// A reader of one expression at a position of the simplified text.
class Reader {
public:
    Reader(std::string_view text, size_t at) : m_text(text), m_at(at) {}

    size_t at() const { return m_at; }

    void skipSpaces()
    {
        while (m_at < m_text.size() && m_text[m_at] == ' ')
            ++m_at;
    }

    // An unsigned number: digits, commas between groups of three, a fraction.
    std::optional<double> number()
    {
        skipSpaces();
        const size_t start = m_at;
        std::string digits;
        while (m_at < m_text.size()) {
            const char c = m_text[m_at];
            if (isDigit(c)) {
                digits += c;
                ++m_at;
            } else if (c == ',' && !digits.empty() && m_at + 3 < m_text.size() + 1 && isDigit(peek(1)) &&
                       isDigit(peek(2)) && isDigit(peek(3)) && !isDigit(peek(4))) {
                ++m_at; // a thousands comma
            } else if (c == '.' && isDigit(peek(1)) && digits.find('.') == std::string::npos) {
                digits += c;
                ++m_at;
            } else {
                break;
            }
        }
        if (digits.empty() || digits == ".") {
            m_at = start;
            return std::nullopt;
        }
        return std::strtod(digits.c_str(), nullptr);
    }

    // expr := term (('+'|'-') term)*; term := factor (('*'|'x'|'/') factor)*;
    // factor := '-'? (number | '(' expr ')'); counts the operators it reads.
    std::optional<double> expression(int& operators)
    {
        auto value = term(operators);
        while (value) {
            skipSpaces();
            const char op = current();
            if (op != '+' && op != '-')
                break;
            ++m_at;
            const auto right = term(operators);
            if (!right)
                return std::nullopt;
            ++operators;
            value = op == '+' ? *value + *right : *value - *right;
        }
        return value;
    }

private:
    char current() const { return m_at < m_text.size() ? m_text[m_at] : '\0'; }
    char peek(size_t ahead) const { return m_at + ahead < m_text.size() ? m_text[m_at + ahead] : '\0'; }

    std::optional<double> term(int& operators)
    {
        auto value = factor(operators);
        while (value) {
            const size_t before = m_at;
            skipSpaces();
            const char op = current();
            // "x" is a times sign only between spaces ("3 x 4"), never in a word.
            const bool times = op == '*' || (op == 'x' && peek(1) == ' ' && m_at > before);
            if (!times && op != '/') {
                m_at = before;
                break;
            }
            ++m_at;
            const auto right = factor(operators);
            if (!right)
                return std::nullopt;
            ++operators;
            if (!times && *right == 0)
                return std::nullopt;
            value = times ? *value * *right : *value / *right;
        }
        return value;
    }

    std::optional<double> factor(int& operators)
    {
        skipSpaces();
        if (current() == '-') {
            ++m_at;
            const auto inner = factor(operators);
            return inner ? std::optional<double>(-*inner) : std::nullopt;
        }
        if (current() == '(') {
            ++m_at;
            const auto inner = expression(operators);
            skipSpaces();
            if (!inner || current() != ')')
                return std::nullopt;
            ++m_at;
            return inner;
        }
        return number();
    }

    std::string_view m_text;
    size_t m_at;
};

// The numbers of a list after `at` ("6500, 698 and 93"), up to its end.
std::vector<double> listAfter(std::string_view text, size_t at)
{
    std::vector<double> values;
    Reader reader(text, at);
    for (;;) {
        reader.skipSpaces();
        const size_t before = reader.at();
        bool negative = false;
        if (before < text.size() && text[before] == '-') {
            negative = true;
            reader = Reader(text, before + 1);
        }
        const auto value = reader.number();
        if (!value)
            break;
        values.push_back(negative ? -*value : *value);
        size_t next = reader.at();
        if (text.substr(next).starts_with(","))
            ++next;
        while (next < text.size() && text[next] == ' ')
            ++next;
        if (text.substr(next).starts_with("and "))
            next += 4;
        if (next == reader.at())
            break;
        reader = Reader(text, next);
    }
    return values;
}

std::optional<double> numberAt(std::string_view text, size_t at, size_t* end = nullptr)
{
    const auto values = listAfter(text, at);
    if (values.empty())
        return std::nullopt;
    if (end) {
        Reader reader(text, at);
        reader.skipSpaces();
        if (reader.at() < text.size() && text[reader.at()] == '-')
            reader = Reader(text, reader.at() + 1);
        reader.number();
        *end = reader.at();
    }
    return values.front();
}

// The value a phrase asks for, or nothing.
std::optional<double> evaluate(std::string_view t)
{
    size_t at = 0;
    if ((at = t.find("what percent of ")) != std::string_view::npos) {
        size_t end = 0;
        const auto whole = numberAt(t, at + 16, &end);
        const auto is = t.find(" is ", end);
        if (whole && is == end) {
            if (const auto part = numberAt(t, is + 4); part && *whole != 0)
                return *part / *whole * 100;
        }
    }
    if ((at = t.find("square root of ")) != std::string_view::npos) {
        if (const auto value = numberAt(t, at + 15); value && *value >= 0)
            return std::sqrt(*value);
    }
    if ((at = t.find("subtract ")) != std::string_view::npos) {
        size_t end = 0;
        const auto a = numberAt(t, at + 9, &end);
        if (a && t.substr(end).starts_with(" from ")) {
            if (const auto b = numberAt(t, end + 6))
                return *b - *a;
        }
    }
    if ((at = t.find("divide ")) != std::string_view::npos) {
        size_t end = 0;
        const auto a = numberAt(t, at + 7, &end);
        if (a && t.substr(end).starts_with(" by ")) {
            if (const auto b = numberAt(t, end + 4); b && *b != 0)
                return *a / *b;
        }
    }
    struct Listed {
        std::string_view phrase;
        int kind; // 0 sum, 1 product, 2 mean
    };
    for (const Listed listed : {Listed{"sum of ", 0}, Listed{"product of ", 1}, Listed{"mean of ", 2},
                                Listed{"average of ", 2}, Listed{"mean (average) of ", 2}}) {
        if ((at = t.find(listed.phrase)) == std::string_view::npos)
            continue;
        size_t from = at + listed.phrase.size();
        if (t.substr(from).starts_with("the numbers "))
            from += 12;
        const auto values = listAfter(t, from);
        if (values.size() < 2)
            continue;
        double result = listed.kind == 1 ? 1 : 0;
        for (const double v : values)
            result = listed.kind == 1 ? result * v : result + v;
        return listed.kind == 2 ? result / double(values.size()) : result;
    }
    for (const std::string_view cue : {"calculate ", "compute ", "evaluate ", "what is ", "what's ", "how much is "}) {
        for (at = t.find(cue); at != std::string_view::npos; at = t.find(cue, at + 1)) {
            const size_t from = at + cue.size();
            // "A percent of B", "A% of B".
            size_t end = 0;
            if (const auto a = numberAt(t, from, &end)) {
                for (const std::string_view of : {" percent of ", "% of "}) {
                    if (t.substr(end).starts_with(of)) {
                        if (const auto b = numberAt(t, end + of.size()))
                            return *a * *b / 100;
                    }
                }
            }
            Reader reader(t, from);
            int operators = 0;
            const auto value = reader.expression(operators);
            reader.skipSpaces();
            const size_t stop = reader.at();
            const char next = stop < t.size() ? t[stop] : '\0';
            if (value && operators > 0 && (next == '\0' || next == '?' || next == '.' || next == '\n' || next == ','))
                return value;
        }
    }
    return std::nullopt;
}

} // namespace

std::string ArithmeticQuestion::format(double value)
{
    if (std::fabs(value - std::round(value)) < 1e-9 && std::fabs(value) < 1e15) {
        const long long integral = std::llround(value);
        return std::to_string(integral);
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.10g", value);
    return buffer;
}

std::optional<std::string> ArithmeticQuestion::answer(std::string_view text)
{
    const auto t = simplified(text);
    const auto value = evaluate(t);
    if (!value || !std::isfinite(*value))
        return std::nullopt;
    return format(*value);
}

} // namespace conclave
