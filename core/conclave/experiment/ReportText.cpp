#include "conclave/experiment/ReportText.h"

#include <cmath>
#include <cstdio>

namespace conclave {

std::string ReportText::fixed(const char* pattern, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string ReportText::percent(double fraction)
{
    return std::isfinite(fraction) ? fixed("%.1f%%", fraction * 100) : "n/a";
}

std::string ReportText::ciText(const Interval& ci)
{
    if (!std::isfinite(ci.lo) || !std::isfinite(ci.hi))
        return "n/a";
    return "[" + fixed("%.1f", ci.lo * 100) + ", " + fixed("%.1f", ci.hi * 100) + "]";
}

std::string ReportText::signedPoints(double delta)
{
    return fixed("%+.1f", delta * 100) + " pt";
}

std::string ReportText::duration(double ms)
{
    if (ms >= 10000)
        return fixed("%.1f s", ms / 1000);
    if (ms >= 1000)
        return fixed("%.2f s", ms / 1000);
    return fixed("%.0f ms", ms);
}

std::string ReportText::money(double usd)
{
    return usd == 0 ? "$0" : usd < 0.01 ? fixed("$%.5f", usd) : fixed("$%.4f", usd);
}

std::string ReportText::ratio(const std::optional<double>& value)
{
    return value ? fixed("%.2fx", *value) : "n/a";
}

std::string ReportText::delta(const DesignSummary& design)
{
    if (!design.vsBaseline)
        return "baseline";
    const auto& v = *design.vsBaseline;
    return signedPoints(v.accuracyDelta) + " " + ciText(v.accuracyDeltaCi);
}

std::string ReportText::wins(const DesignSummary& design)
{
    if (!design.vsBaseline)
        return "-";
    return std::to_string(design.vsBaseline->wins) + "/" + std::to_string(design.vsBaseline->losses) + "/" +
           std::to_string(design.vsBaseline->ties);
}

} // namespace conclave
