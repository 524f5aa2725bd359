#include "conclave/experiment/SweepCurveText.h"

#include "conclave/experiment/ReportJson.h"
#include "conclave/experiment/ReportText.h"
#include "conclave/util/MoneyText.h"
#include "conclave/util/NumberText.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

using ReportJson::interval;
using ReportJson::number;
using ReportJson::optionalNumber;

std::string fixedTo(double value, int decimals)
{
    const std::string pattern = "%." + std::to_string(decimals) + "f";
    return ReportText::fixed(pattern.c_str(), value);
}

bool onHull(const CurvePoint& p, const std::vector<CurvePoint>& hull)
{
    return std::any_of(hull.begin(), hull.end(),
                       [&](const CurvePoint& h) { return h.cost == p.cost && h.quality == p.quality; });
}

std::string modelOf(const SweepCurve& curve, size_t reference)
{
    return curve.references[reference].model;
}

nlohmann::ordered_json thresholdJson(const CallThreshold& t)
{
    switch (t.status) {
    case CallThreshold::Status::Reached:
        return number(t.share);
    case CallThreshold::Status::NotReached:
        return "not reached";
    case CallThreshold::Status::Undefined:
        break;
    }
    return nullptr;
}

nlohmann::ordered_json figureJson(const BootstrapFigure& f)
{
    return {{"value", optionalNumber(f.value)}, {"ci", interval(f.ci)}, {"undefined_resamples", f.undefinedResamples}};
}

nlohmann::ordered_json thresholdJson(const BootstrapThreshold& t)
{
    return {{"value", thresholdJson(t.value)},
            {"ci", nlohmann::ordered_json::array({thresholdJson(t.lo), thresholdJson(t.hi)})},
            {"undefined_resamples", t.undefinedResamples}};
}

// One row per variant: value, cost/trial, quality, its CI, the strong share, on the hull.
std::vector<std::vector<std::string>> variantRows(const SweepCurve::Series& s, const CurveFigures& f)
{
    std::vector<std::vector<std::string>> rows{{s.path, "cost/trial", "quality", "95% CI"}};
    if (!f.shares.empty())
        rows.front().push_back("strong calls");
    rows.front().push_back("on hull");
    for (size_t v = 0; v < f.points.size(); ++v) {
        rows.push_back({s.values[v], moneyText(f.points[v].cost), ReportText::percent(f.points[v].quality),
                        ReportText::ciText(f.qualityCi[v])});
        if (!f.shares.empty())
            rows.back().push_back(ReportText::percent(f.shares[v]));
        rows.back().push_back(onHull(f.points[v], f.hull) ? "yes" : "");
    }
    return rows;
}

std::vector<std::vector<std::string>> referenceRows(const SweepCurve& curve, const CurveReport& r)
{
    std::vector<std::vector<std::string>> rows{{"single model", "cost/trial", "quality", "95% CI"}};
    for (size_t i = 0; i < r.references.size(); ++i)
        rows.push_back({modelOf(curve, i), moneyText(r.references[i].cost),
                        ReportText::percent(r.references[i].quality), ReportText::ciText(r.referenceQualityCi[i])});
    return rows;
}

// Each line of `text` after two spaces.
std::string indented(const std::string& text)
{
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        const auto line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        out += "  " + line + "\n";
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return out;
}

} // namespace

std::string SweepCurveText::figure(const BootstrapFigure& f, int decimals)
{
    if (!f.value)
        return "undefined";
    return fixedTo(*f.value, decimals) + " [" + fixedTo(f.ci.lo, decimals) + ", " + fixedTo(f.ci.hi, decimals) + "]";
}

std::string SweepCurveText::threshold(const CallThreshold& t)
{
    switch (t.status) {
    case CallThreshold::Status::Reached:
        return fixedTo(t.share * 100, 1) + " %";
    case CallThreshold::Status::NotReached:
        return "not reached";
    case CallThreshold::Status::Undefined:
        break;
    }
    return "undefined";
}

std::string SweepCurveText::threshold(const BootstrapThreshold& t)
{
    return threshold(t.value) + " [" + threshold(t.lo) + ", " + threshold(t.hi) + "]";
}

std::string SweepCurveText::basis(const SweepCurve& curve)
{
    std::string out = "held out: " + std::to_string(curve.tasks) + (curve.tasks == 1 ? " task" : " tasks");
    if (curve.trainedOn > 0)
        out += " (" + std::to_string(curve.trainedOn) + " that a router or scorer file was trained on left out)";
    if (curve.figures)
        out += ", " + groupThousands(uint64_t(curve.figures->resamples)) + " bootstrap resamples over tasks";
    return out + ", " + curve.provenance.text();
}

std::string SweepCurveText::series(const SweepCurve::Series& s)
{
    std::string out = s.team + " (" + s.path + "): " + s.kind;
    if (!s.weak.empty())
        out += ", " + s.weak + " (weak) and " + s.strong + " (strong)";
    return out;
}

std::string SweepCurveText::figures(const CurveFigures& f)
{
    std::string out = "AIQ " + figure(f.aiq);
    if (f.gain)
        out += " · APGR " + figure(f.gain->apgr) + " · CPT(50%) " + threshold(f.gain->cpt50) + " · CPT(80%) " +
               threshold(f.gain->cpt80);
    return out;
}

std::string SweepCurveText::table(const SweepCurve& curve)
{
    std::string out = "quality-cost curve (" + basis(curve) + ")\n";
    for (size_t s = 0; s < curve.series.size(); ++s) {
        out += series(curve.series[s]) + "\n";
        if (!curve.figures)
            continue;
        const auto& f = curve.figures->curves[s];
        out += "  " + figures(f) + "\n";
        out += indented(ReportText::aligned(variantRows(curve.series[s], f)));
    }
    if (curve.figures)
        out += indented(ReportText::aligned(referenceRows(curve, *curve.figures)));
    for (const auto& note : curve.notes)
        out += "curve: " + note + "\n";
    return out;
}

std::string SweepCurveText::markdown(const SweepCurve& curve)
{
    auto row = [](const std::vector<std::string>& cells) {
        std::string out = "|";
        for (const auto& c : cells)
            out += " " + c + " |";
        return out + "\n";
    };
    auto header = [&](const std::vector<std::string>& cells) {
        std::string out = row(cells) + "| --- |";
        for (size_t c = 1; c < cells.size(); ++c)
            out += " ---: |";
        return out + "\n";
    };
    std::string out = "\n### Quality–cost curve\n\n_" + basis(curve) + "._\n";
    for (size_t s = 0; s < curve.series.size(); ++s) {
        out += "\n**" + series(curve.series[s]) + "**";
        if (!curve.figures) {
            out += "\n";
            continue;
        }
        const auto& f = curve.figures->curves[s];
        out += " — " + figures(f) + "\n\n";
        const auto rows = variantRows(curve.series[s], f);
        out += header(rows.front());
        for (size_t r = 1; r < rows.size(); ++r)
            out += row(rows[r]);
    }
    if (curve.figures) {
        const auto rows = referenceRows(curve, *curve.figures);
        out += "\n" + header(rows.front());
        for (size_t r = 1; r < rows.size(); ++r)
            out += row(rows[r]);
    }
    for (const auto& note : curve.notes)
        out += "\n_" + note + "._\n";
    return out;
}

nlohmann::ordered_json SweepCurveText::json(const SweepCurve& curve)
{
    nlohmann::ordered_json j;
    j["tasks"] = curve.tasks;
    j["trained_on_left_out"] = curve.trainedOn;
    j["provenance"] = curve.provenance.text();
    j["resamples"] = curve.figures ? curve.figures->resamples : 0;
    j["references"] = nlohmann::ordered_json::array();
    for (size_t r = 0; r < curve.references.size(); ++r) {
        nlohmann::ordered_json o{{"model", curve.references[r].model}};
        if (curve.figures)
            o.update({{"cost_usd", number(curve.figures->references[r].cost)},
                      {"quality", number(curve.figures->references[r].quality)},
                      {"quality_ci", interval(curve.figures->referenceQualityCi[r])}});
        j["references"].push_back(std::move(o));
    }
    j["series"] = nlohmann::ordered_json::array();
    for (size_t s = 0; s < curve.series.size(); ++s) {
        const auto& series = curve.series[s];
        nlohmann::ordered_json o{
            {"team", series.team}, {"path", series.path}, {"node", series.node}, {"kind", series.kind}};
        if (!series.weak.empty())
            o.update({{"weak", series.weak}, {"strong", series.strong}});
        o["variants"] = nlohmann::ordered_json::array();
        const CurveFigures* f = curve.figures ? &curve.figures->curves[s] : nullptr;
        for (size_t v = 0; v < series.designs.size(); ++v) {
            nlohmann::ordered_json variant{{"value", series.values[v]}};
            if (f) {
                variant.update({{"cost_usd", number(f->points[v].cost)},
                                {"quality", number(f->points[v].quality)},
                                {"quality_ci", interval(f->qualityCi[v])},
                                {"on_hull", onHull(f->points[v], f->hull)}});
                if (!f->shares.empty())
                    variant["strong_share"] = number(f->shares[v]);
            }
            o["variants"].push_back(std::move(variant));
        }
        if (f) {
            o["aiq"] = figureJson(f->aiq);
            if (f->gain) {
                o["apgr"] = figureJson(f->gain->apgr);
                o["cpt50"] = thresholdJson(f->gain->cpt50);
                o["cpt80"] = thresholdJson(f->gain->cpt80);
            }
        }
        j["series"].push_back(std::move(o));
    }
    j["notes"] = curve.notes;
    return j;
}

} // namespace conclave
