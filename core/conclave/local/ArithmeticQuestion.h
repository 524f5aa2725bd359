#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace conclave {

// Free prompts the simulator can check: questions of the bundled math
// families, computed exactly, so a prompt that is in no task set is still
// answered like a task ("Calculate 17 + 25." has the truth 42).
//
// Recognised, case-insensitively, anywhere in the text:
//   calculate | compute | evaluate | what is | what's | how much is  EXPR
//       EXPR: numbers with + - − × * x ÷ / and parentheses, at least one
//       operator, usual precedence; "A percent of B" and "A% of B" too
//   what percent of B is A          → A / B × 100
//   the sum of A, B and C           → A + B + C
//   the product of A and B          → A × B
//   the mean | average of A, B, …   → their mean
//   subtract A from B               → B − A
//   divide A by B                   → A / B
//   the square root of A            → √A
// Numbers may have a sign, a fraction and thousands commas ("1,027").
// An expression nests at most kMaxNesting levels: each open bracket and each
// sign in front of a number ("--2" is two) is one. Deeper text is not
// arithmetic (it is answered as a free prompt), and reading it never recurses
// past the limit (docs/limits.md).
class ArithmeticQuestion {
public:
    static constexpr int kMaxNesting = 64;

    // The answer as the task sets write one ("783", "93.5", "-6"), or nothing
    // when the text asks none of these (or divides by zero).
    static std::optional<std::string> answer(std::string_view text);
    // A value as a task set's answer: an integer without a point, else at
    // most 10 significant digits without trailing zeros.
    static std::string format(double value);
};

} // namespace conclave
