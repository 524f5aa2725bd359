#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace conclave {

// "$0.0123": an amount of US dollars as every output writes it (the CLI, the
// reports, the engine's notes, the studio), one rule:
// - 0 is "$0";
// - from a dollar up, cents: "$12.35";
// - from a thousandth up, four decimals: "$0.0234", "$0.0031";
// - below, enough decimals for two significant digits (5 to 10), so a tiny
//   cost or difference never reads as $0.0000: "$0.00022", "$0.0000012";
// - a negative amount has its sign first: "-$0.50".
inline std::string moneyText(double usd)
{
    if (usd == 0)
        return "$0";
    const double a = std::abs(usd);
    const int decimals = a >= 1 ? 2 : a >= 0.001 ? 4 : std::clamp(int(std::ceil(-std::log10(a))) + 1, 5, 10);
    char text[64];
    std::snprintf(text, sizeof text, "%s$%.*f", usd < 0 ? "-" : "", decimals, a);
    return text;
}

} // namespace conclave
