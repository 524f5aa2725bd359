#include "conclave/experiment/FidelityReport.h"

#include "conclave/experiment/ReportJson.h"
#include "conclave/experiment/ReportText.h"
#include "conclave/util/MoneyText.h"
#include "conclave/util/NumberText.h"

#include <cmath>
#include <sstream>

namespace conclave {

namespace {

using ReportJson::interval;
using ReportJson::number;
using ReportJson::optionalNumber;

nlohmann::ordered_json predictionJson(const std::optional<FidelityPrediction>& p)
{
    if (!p)
        return nullptr;
    return {{"accuracy", number(p->accuracy.accuracy)},
            {"accuracy_ci", interval(p->accuracy.ci)},
            {"tasks", p->accuracy.tasks},
            {"z", number(p->z)},
            {"within", p->within},
            {"cost_usd", number(p->meanCostUsd)},
            {"cost_ratio", optionalNumber(p->costRatio)},
            {"p50_wall_ms", number(p->wallMs.p50)},
            {"p95_wall_ms", number(p->wallMs.p95)},
            {"p50_wall_ratio", optionalNumber(p->p50Ratio)},
            {"p95_wall_ratio", optionalNumber(p->p95Ratio)}};
}

nlohmann::ordered_json orderJson(const RankAgreement& order)
{
    return {{"separated_pairs", order.pairs},
            {"concordant", order.concordant},
            {"discordant", order.discordant},
            {"tau_b", optionalNumber(order.tauB)}};
}

std::string zText(double z)
{
    if (!std::isfinite(z))
        return z > 0 ? "+inf" : "-inf";
    return ReportText::fixed("%+.2f", z);
}

std::string accuracyText(const AccuracyFigures& a)
{
    return ReportText::percent(a.accuracy) + " " + ReportText::ciText(a.ci);
}

std::string orderText(const char* what, const RankAgreement& order)
{
    std::string out = std::string(what) + ": Kendall's tau-b ";
    if (!order.tauB)
        return out + "n/a (" +
               (order.pairs == 0 ? std::string("no two designs' measured CIs are apart")
                                 : "every separated pair is tied in prediction") +
               ")";
    return out + ReportText::fixed("%.2f", *order.tauB) + " over " + std::to_string(order.pairs) +
           (order.pairs == 1 ? " pair" : " pairs") + " whose measured CIs do not overlap (" +
           std::to_string(order.concordant) + " in the measured order, " + std::to_string(order.discordant) +
           " reversed)";
}

std::string withinText(const FidelityReport& report)
{
    const auto [within, predicted] = report.within();
    return std::to_string(within) + " of " + std::to_string(predicted) +
           " simulated predictions within 1.96 combined standard errors of the measurement";
}

} // namespace

std::pair<int64_t, int64_t> FidelityReport::within() const
{
    int64_t inside = 0, predicted = 0;
    for (const auto& d : designs) {
        if (!d.simulated)
            continue;
        ++predicted;
        inside += d.simulated->within ? 1 : 0;
    }
    return {inside, predicted};
}

nlohmann::ordered_json FidelityReport::json() const
{
    nlohmann::ordered_json j;
    j["experiments"] = experiments;
    j["holdout"] = holdout;
    j["folds"] = folds;
    j["seed"] = seed;
    j["calibration_tasks"] = calibrationTasks;
    j["held_out_tasks"] = heldOutTasks;
    j["simulated_seeds"] = simulatedSeeds;
    j["answers"] = answers;
    j["resamples"] = resamples;
    j["not_measured"] = notMeasured;
    j["simulated"] = true;
    j["designs"] = nlohmann::ordered_json::array();
    for (const auto& d : designs) {
        nlohmann::ordered_json o;
        o["name"] = d.name;
        o["experiment"] = d.experiment;
        o["combines"] = d.combines;
        o["measured"] = {{"accuracy", number(d.measured.accuracy)},
                         {"accuracy_ci", interval(d.measured.ci)},
                         {"tasks", d.measured.tasks},
                         {"scored", d.measured.scored},
                         {"cost_usd", number(d.measuredCostUsd)},
                         {"p50_wall_ms", number(d.measuredWallMs.p50)},
                         {"p95_wall_ms", number(d.measuredWallMs.p95)}};
        o["simulated"] = predictionJson(d.simulated);
        o["replayed"] = predictionJson(d.replayed);
        o["self_replay"] = predictionJson(d.selfReplay);
        if (!d.why.empty())
            o["why"] = d.why;
        j["designs"].push_back(std::move(o));
    }
    const auto [inside, predicted] = within();
    j["within_share"] = predicted > 0 ? number(double(inside) / double(predicted)) : nlohmann::ordered_json();
    j["simulated_order"] = orderJson(simulatedOrder);
    j["replayed_order"] = orderJson(replayedOrder);
    j["limitation"] = limitation.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(limitation);
    return j;
}

std::string FidelityReport::title() const
{
    std::string ids;
    for (const auto& id : experiments)
        ids += (ids.empty() ? "" : ", ") + id;
    return "fidelity of the local-moe SIMULATOR against " + ids + ": " + basis();
}

std::string FidelityReport::basis() const
{
    const auto read = groupThousands(uint64_t(answers));
    if (folds >= 2)
        return std::to_string(folds) + "-fold cross-fit: each of " + std::to_string(folds) + " parts of " +
               std::to_string(heldOutTasks) + " tasks predicted from a calibration on the others (" + read +
               " answers read in all; --folds " + std::to_string(folds) + ", seed " + std::to_string(seed) + ")";
    return "calibrated on " + std::to_string(calibrationTasks) + " tasks (" + read + " answers), predicted on " +
           std::to_string(heldOutTasks) + " held-out tasks (--holdout " + formatNumber(holdout) + ", seed " +
           std::to_string(seed) + ")";
}

std::vector<std::string> FidelityReport::columns()
{
    return {"design", "measured", "simulated", "z", "cost", "p50 wall", "p95 wall", "replayed (others)", "z",
            "self-replay"};
}

std::vector<std::string> FidelityReport::cells(const FidelityDesign& d)
{
    std::vector<std::string> row{d.name, accuracyText(d.measured)};
    if (d.simulated)
        row.insert(row.end(), {accuracyText(d.simulated->accuracy), zText(d.simulated->z),
                               ReportText::ratio(d.simulated->costRatio), ReportText::ratio(d.simulated->p50Ratio),
                               ReportText::ratio(d.simulated->p95Ratio)});
    else
        row.insert(row.end(), {"-", "-", "-", "-", "-"});
    if (d.replayed)
        row.insert(row.end(), {accuracyText(d.replayed->accuracy), zText(d.replayed->z)});
    else
        row.insert(row.end(), {"-", "-"});
    row.push_back(d.selfReplay ? ReportText::percent(d.selfReplay->accuracy.accuracy) : "-");
    return row;
}

std::vector<std::string> FidelityReport::summaryLines() const
{
    std::vector<std::string> lines{
        "cost, p50 and p95 wall: simulated ÷ measured; z: (predicted − measured) / √(se_pred² + se_meas²)",
        withinText(*this), orderText("simulated order", simulatedOrder)};
    if (replayedOrder.pairs > 0 || replayedOrder.tauB)
        lines.push_back(orderText("replayed order", replayedOrder));
    lines.push_back(resamples > 0 ? "calibration uncertainty: " + std::to_string(resamples) + " resamples"
                                  : "simulated CIs: simulation noise only");
    if (simulatedSeeds > 0)
        lines.push_back("simulated under " + std::to_string(simulatedSeeds) + " seeds per task");
    return lines;
}

std::vector<std::string> FidelityReport::noteLines() const
{
    std::vector<std::string> lines;
    for (const auto& d : designs)
        if (!d.why.empty())
            lines.push_back(d.name + ": not predicted: " + d.why);
    for (const auto& line : notMeasured)
        lines.push_back("not measured — built-in default used: " + line);
    return lines;
}

std::string FidelityReport::table() const
{
    std::string out = title() + "\n";
    std::vector<std::vector<std::string>> rows{columns()};
    for (const auto& d : designs)
        rows.push_back(cells(d));
    out += ReportText::aligned(rows);
    for (const auto& line : summaryLines())
        out += line + "\n";
    for (const auto& line : noteLines())
        out += line + "\n";
    if (!limitation.empty())
        out += limitation + "\n";
    return out;
}

std::string FidelityReport::markdown() const
{
    std::ostringstream out;
    out << "## Simulator fidelity\n\n> **Simulated predictions** from Conclave's local-moe simulator against "
           "measurements, "
        << basis() << ".\n\n";
    out << "| design | measured (95% CI) | simulated (95% CI) | z | cost ratio | p50 wall ratio | p95 wall ratio | "
           "replayed from the others (95% CI) | z | self-replay |\n";
    out << "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    for (const auto& d : designs) {
        out << "| " << d.name << " | " << accuracyText(d.measured) << " | ";
        if (d.simulated)
            out << accuracyText(d.simulated->accuracy) << " | " << zText(d.simulated->z) << " | "
                << ReportText::ratio(d.simulated->costRatio) << " | " << ReportText::ratio(d.simulated->p50Ratio)
                << " | " << ReportText::ratio(d.simulated->p95Ratio) << " | ";
        else
            out << "- | - | - | - | - | ";
        if (d.replayed)
            out << accuracyText(d.replayed->accuracy) << " | " << zText(d.replayed->z) << " | ";
        else
            out << "- | - | ";
        out << (d.selfReplay ? ReportText::percent(d.selfReplay->accuracy.accuracy) : "-") << " |\n";
    }
    out << "\n" << withinText(*this) << ". " << orderText("Simulated order", simulatedOrder) << ". ";
    if (replayedOrder.pairs > 0)
        out << orderText("Replayed order", replayedOrder) << ". ";
    out << (resamples > 0 ? "Calibration uncertainty: " + std::to_string(resamples) + " resamples."
                          : "Simulated CIs: simulation noise only.")
        << "\n";
    for (const auto& line : notMeasured)
        out << "\n- not measured — built-in default used: " << line;
    if (!notMeasured.empty())
        out << "\n";
    if (!limitation.empty())
        out << "\n**" << limitation << "**\n";
    return out.str();
}

} // namespace conclave
