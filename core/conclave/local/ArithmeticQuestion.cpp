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

// a·x + c: an expression's value, linear in the unknown x of an equation.
struct Linear {
    double x = 0;
    double c = 0;
};

// A reader of one expression at a position of the simplified text. With
// `unknown`, "x" is the unknown ("4x", "3(x - 2)"); without, a times sign
// between spaces ("3 x 4").
class Reader {
public:
    Reader(std::string_view text, size_t at, bool unknown = false) : m_text(text), m_at(at), m_unknown(unknown) {}

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
            } else if (c == ',' && !digits.empty() && isDigit(peek(1)) && isDigit(peek(2)) && isDigit(peek(3)) &&
                       !isDigit(peek(4))) {
                ++m_at; // a thousands comma
            } else if (c == '.' && isDigit(peek(1)) && digits.find('.') == std::string::npos) {
                digits += c;
                ++m_at;
            } else {
                break;
            }
        }
        if (digits.empty()) {
            m_at = start;
            return std::nullopt;
        }
        return std::strtod(digits.c_str(), nullptr);
    }

    // expr := term (('+'|'-') term)*; term := factor (('*'|'x'|'/') factor)*;
    // factor := '-'? (number | 'x' | '(' expr ')') with "4x" and "3(…)" as
    // products; counts the operators it reads.
    std::optional<Linear> expression(int& operators)
    {
        auto value = term(operators);
        while (value) {
            const size_t before = m_at;
            skipSpaces();
            const char op = current();
            if (op != '+' && op != '-') {
                m_at = before;
                break;
            }
            ++m_at;
            const auto right = term(operators);
            if (!right)
                return std::nullopt;
            ++operators;
            const double sign = op == '+' ? 1 : -1;
            value = Linear{value->x + sign * right->x, value->c + sign * right->c};
        }
        return value;
    }

private:
    char current() const { return m_at < m_text.size() ? m_text[m_at] : '\0'; }
    char peek(size_t ahead) const { return m_at + ahead < m_text.size() ? m_text[m_at + ahead] : '\0'; }

    // One level deeper, or nothing past ArithmeticQuestion::kMaxNesting: the
    // reader's recursion is bounded whatever the text.
    template <class Read> std::optional<Linear> nested(Read read)
    {
        if (m_nesting == ArithmeticQuestion::kMaxNesting)
            return std::nullopt;
        ++m_nesting;
        auto value = read();
        --m_nesting;
        return value;
    }

    static std::optional<Linear> times(const Linear& a, const Linear& b)
    {
        if (a.x != 0 && b.x != 0)
            return std::nullopt; // not linear
        return Linear{a.x * b.c + b.x * a.c, a.c * b.c};
    }

    std::optional<Linear> term(int& operators)
    {
        auto value = factor(operators);
        while (value) {
            const size_t before = m_at;
            skipSpaces();
            const char op = current();
            // "x" is a times sign only between spaces ("3 x 4"), never in a word.
            const bool multiply = op == '*' || (!m_unknown && op == 'x' && peek(1) == ' ' && m_at > before);
            if (!multiply && op != '/') {
                m_at = before;
                break;
            }
            ++m_at;
            const auto right = factor(operators);
            if (!right || (!multiply && (right->x != 0 || right->c == 0)))
                return std::nullopt;
            ++operators;
            value = multiply ? times(*value, *right) : Linear{value->x / right->c, value->c / right->c};
        }
        return value;
    }

    std::optional<Linear> factor(int& operators)
    {
        skipSpaces();
        if (current() == '-') {
            ++m_at;
            const auto inner = nested([&] { return factor(operators); });
            return inner ? std::optional<Linear>(Linear{-inner->x, -inner->c}) : std::nullopt;
        }
        if (current() == '(') {
            ++m_at;
            const auto inner = nested([&] { return expression(operators); });
            skipSpaces();
            if (!inner || current() != ')')
                return std::nullopt;
            ++m_at;
            return inner;
        }
        if (m_unknown && current() == 'x' && !std::isalpha(static_cast<unsigned char>(peek(1)))) {
            ++m_at;
            return Linear{1, 0};
        }
        const auto n = number();
        if (!n)
            return std::nullopt;
        // "4x", "3(x - 2)": a coefficient written against what it multiplies.
        // ("(" nests by itself, so this adds no level: 3(4(x)) is two deep.)
        if (m_unknown && (current() == 'x' || current() == '(')) {
            const auto next = factor(operators);
            return next ? times(Linear{0, *n}, *next) : std::nullopt;
        }
        return Linear{0, *n};
    }

    std::string_view m_text;
    size_t m_at;
    bool m_unknown;
    int m_nesting = 0;
};

// "solve for x: 4x + 36 = 80", "7x + 2 = 2x - 3", "if 3(x - 2) = 12": the x
// of the first equation with one unknown.
std::optional<double> solveEquation(std::string_view t)
{
    if (t.find("solve") == std::string_view::npos && t.find("what is x") == std::string_view::npos &&
        t.find("value of x") == std::string_view::npos)
        return std::nullopt;
    const size_t equals = t.find('=');
    if (equals == std::string_view::npos)
        return std::nullopt;
    // The left side starts where the run of expression characters before '=' does.
    size_t from = equals;
    while (from > 0 && std::string_view("0123456789x+-*/(). ").find(t[from - 1]) != std::string_view::npos)
        --from;
    int operators = 0;
    Reader left(t, from, true);
    const auto l = left.expression(operators);
    left.skipSpaces();
    if (!l || left.at() != equals)
        return std::nullopt;
    Reader right(t, equals + 1, true);
    const auto r = right.expression(operators);
    if (!r || l->x == r->x)
        return std::nullopt;
    return (r->c - l->c) / (l->x - r->x);
}

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
    if (const auto x = solveEquation(t))
        return x;
    size_t at = 0;
    // "the fraction 7/20 as a decimal".
    if ((at = t.find("fraction ")) != std::string_view::npos) {
        size_t end = 0;
        const auto a = numberAt(t, at + 9, &end);
        if (a && end < t.size() && t[end] == '/') {
            if (const auto b = numberAt(t, end + 1); b && *b != 0)
                return *a / *b;
        }
    }
    // "80 dollars is increased by 50%", "195 dollars and is discounted by 40%".
    for (const std::string_view change : {" increased by ", " discounted by ", " decreased by ", " reduced by "}) {
        if ((at = t.find(change)) == std::string_view::npos)
            continue;
        size_t end = 0;
        const auto percent = numberAt(t, at + change.size(), &end);
        if (!percent || !(t.substr(end).starts_with("%") || t.substr(end).starts_with(" percent")))
            continue;
        // The amount: the last number before the change.
        std::optional<double> amount;
        for (size_t i = 0; i < at; ++i) {
            if (isDigit(t[i]) && (i == 0 || (!isDigit(t[i - 1]) && t[i - 1] != '.' && t[i - 1] != ','))) {
                size_t stop = 0;
                amount = numberAt(t, i, &stop);
                i = stop;
            }
        }
        if (amount)
            return *amount * (1 + (change == " increased by " ? 1 : -1) * *percent / 100);
    }
    // "falls from 250 to 200 ... percentage", "rises from 40 to 50 ... percent".
    if ((at = t.find("from ")) != std::string_view::npos && t.find("percent") != std::string_view::npos) {
        size_t end = 0;
        const auto before = numberAt(t, at + 5, &end);
        if (before && *before != 0 && t.substr(end).starts_with(" to ")) {
            if (const auto after = numberAt(t, end + 4))
                return std::fabs(*after - *before) / *before * 100;
        }
    }
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
            // "32 squared", "6 cubed".
            if (const auto a = numberAt(t, from, &end)) {
                if (t.substr(end).starts_with(" squared"))
                    return *a * *a;
                if (t.substr(end).starts_with(" cubed"))
                    return *a * *a * *a;
            }
            Reader reader(t, from);
            int operators = 0;
            const auto value = reader.expression(operators);
            reader.skipSpaces();
            const size_t stop = reader.at();
            const char next = stop < t.size() ? t[stop] : '\0';
            if (value && operators > 0 && (next == '\0' || next == '?' || next == '.' || next == '\n' || next == ','))
                return value->c;
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
