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

std::string ReportText::ratio(const std::optional<double>& value)
{
    return value ? fixed("%.2fx", *value) : "n/a";
}

std::string ReportText::delta(const DesignSummary& design)
{
    if (!design.vsBaseline)
        return "baseline";
    const auto& v = *design.vsBaseline;
    const auto significance = v.significance();
    return signedPoints(v.accuracyDelta) + " " + ciText(v.accuracyDeltaCi) +
           (significance == Significance::Better  ? " better"
            : significance == Significance::Worse ? " worse"
                                                  : "");
}

std::string ReportText::ciMethod(CiMethod method)
{
    switch (method) {
    case CiMethod::None:
        return "no interval (fewer than two tasks)";
    case CiMethod::Wilson:
        return "Wilson score interval over the trials";
    case CiMethod::Clustered:
        return "mean of per-task accuracies, task-clustered standard error, t quantile";
    case CiMethod::WilsonOverTasks:
        return "Wilson score interval over the tasks (every task at the same accuracy)";
    case CiMethod::PairedT:
        return "paired t over per-task differences";
    case CiMethod::Newcombe:
        return "Newcombe's paired score interval over the tasks (every task moved by the same amount)";
    }
    return "";
}

std::string ReportText::wins(const DesignSummary& design)
{
    if (!design.vsBaseline)
        return "-";
    return std::to_string(design.vsBaseline->wins) + "/" + std::to_string(design.vsBaseline->losses) + "/" +
           std::to_string(design.vsBaseline->ties);
}

std::string ReportText::prediction(const DesignPrediction& p)
{
    std::string out = "predicted from calibration of " + p.basis.text() + "; ";
    if (p.resamples > 0)
        out += "calibration uncertainty: " + std::to_string(p.resamples) + " resamples (simulation noise alone " +
               ciText(p.simulationCi) + ")";
    else
        out += "CI: simulation noise only";
    if (p.unmeasuredTasks > 0)
        out += "; " + std::to_string(p.unmeasuredTasks) + " of " + std::to_string(p.tasks) +
               (p.tasks == 1 ? " task has" : " tasks have") + " no measured difficulty";
    return out;
}

std::string ReportText::aligned(const std::vector<std::vector<std::string>>& rows)
{
    std::vector<size_t> widths;
    for (const auto& row : rows) {
        widths.resize(std::max(widths.size(), row.size()));
        for (size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], row[c].size());
    }
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            const std::string pad(widths[c] - row[c].size(), ' ');
            line += c == 0 ? row[c] + pad : "  " + pad + row[c];
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}


} // namespace conclave
