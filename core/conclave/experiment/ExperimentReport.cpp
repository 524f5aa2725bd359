#include "conclave/experiment/ExperimentReport.h"

#include "conclave/engine/RunPlan.h"
#include "conclave/experiment/ReportJson.h"
#include "conclave/experiment/ReportText.h"
#include "conclave/experiment/SweepColumns.h"
#include "conclave/experiment/SweepCurveText.h"
#include "conclave/io/CsvField.h"
#include "conclave/session/ClockChoice.h"
#include "conclave/store/RunQueries.h"
#include "conclave/util/MoneyText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace conclave {

namespace {

using ReportJson::interval;
using ReportJson::number;
using ReportJson::optionalNumber;

nlohmann::ordered_json percentiles(const Percentiles& p)
{
    return {{"p50", p.p50}, {"p95", p.p95}};
}

nlohmann::ordered_json accuracy(const AccuracyFigures& a)
{
    return {{"trials", a.trials},
            {"scored", a.scored},
            {"correct", a.correct},
            {"tasks", a.tasks},
            {"accuracy", number(a.accuracy)},
            {"accuracy_ci", interval(a.ci)},
            {"ci_method", std::string(toString(a.ciMethod))}};
}

// "method (a, b); other method (c)": each method once, with the names it was used for, in first-use order.
std::string grouped(const std::vector<std::pair<CiMethod, std::string>>& used)
{
    std::vector<std::pair<CiMethod, std::vector<std::string>>> groups;
    for (const auto& use : used) {
        const CiMethod method = use.first;
        auto it = std::find_if(groups.begin(), groups.end(), [method](const auto& g) { return g.first == method; });
        if (it == groups.end())
            groups.push_back({method, {use.second}});
        else
            it->second.push_back(use.second);
    }
    std::string out;
    for (const auto& [method, names] : groups) {
        out += (out.empty() ? "" : "; ") + ReportText::ciMethod(method);
        if (groups.size() > 1) {
            std::string list;
            for (const auto& name : names)
                list += (list.empty() ? "" : ", ") + name;
            out += " (" + list + ")";
        }
    }
    return out;
}

} // namespace

std::optional<ExperimentReport> ExperimentReport::load(RunQueries& reader, const std::string& idOrPrefix,
                                                       std::string& error)
{
    auto record = reader.experiment(idOrPrefix, error);
    if (!record)
        return std::nullopt;
    auto trials = reader.trials(record->id, error);
    if (!trials)
        return std::nullopt;
    return make(std::move(*record), std::move(*trials), error);
}

std::optional<ExperimentReport> ExperimentReport::make(ExperimentRecord record, std::vector<TrialRecord> trials,
                                                       std::string& error)
{
    auto spec = StoredSpec::fromJson(record.specJson, error);
    if (!spec) {
        error = "experiment " + record.id + ": " + error;
        return std::nullopt;
    }
    ExperimentReport report;
    report.record = std::move(record);
    report.spec = std::move(*spec);
    report.trials = std::move(trials);
    std::vector<std::string> names;
    CallSources all;
    for (size_t i = 0; i < report.spec.designs.size(); ++i) {
        const auto& design = report.spec.designs[i];
        names.push_back(design.name);
        std::vector<const TrialRecord*> ofDesign;
        for (const auto& trial : report.trials) {
            if (trial.design == int(i))
                ofDesign.push_back(&trial);
        }
        const auto sources = callSources(design.team, ofDesign);
        all += sources;
        report.provenances.push_back(conclave::provenance(sources));
        std::string planError;
        const auto plan = RunPlan::make(design.team, planError);
        const auto choice = plan ? chooseClock(*plan, report.spec.clock) : ClockChoice{};
        report.clocks.push_back(choice.error.empty() ? choice.kind : ClockKind::Real);
    }
    if (report.spec.judge) {
        const auto sources = callSources(report.spec.judge->team);
        all += sources;
        report.judge = conclave::provenance(sources);
    }
    report.provenance = conclave::provenance(all);
    report.summary = ExperimentStats::summarize(names, report.spec.baseline, report.trials);
    report.curve = SweepCurve::of(report.spec.designs, report.trials);
    return report;
}

void ExperimentReport::setPredictions(std::vector<std::optional<DesignPrediction>> made)
{
    predictions = std::move(made);
    for (size_t i = 0; i < predictions.size() && i < summary.designs.size(); ++i)
        if (predictions[i])
            summary.designs[i].overall.ci = predictions[i]->ci;
}

std::string ExperimentReport::ciMethods() const
{
    std::vector<std::pair<CiMethod, std::string>> accuracyMethods;
    std::vector<std::pair<CiMethod, std::string>> deltaMethods;
    for (const auto& d : summary.designs) {
        if (d.overall.scored > 0)
            accuracyMethods.emplace_back(d.overall.ciMethod, d.name);
        if (d.vsBaseline)
            deltaMethods.emplace_back(d.vsBaseline->accuracyDeltaCiMethod, d.name);
    }
    std::string out = "Accuracy CIs: " + (accuracyMethods.empty() ? "none" : grouped(accuracyMethods)) + ".";
    if (!deltaMethods.empty())
        out += " Δ: " + grouped(deltaMethods) + "; better or worse when its CI excludes 0.";
    return out;
}

nlohmann::ordered_json ExperimentReport::json() const
{
    nlohmann::ordered_json j;
    j["experiment_id"] = record.id;
    j["name"] = record.name;
    j["status"] = std::string(toString(record.status));
    j["provenance"] = provenance.text();
    j["simulated"] = provenance.kind == Provenance::Kind::Simulated;
    j["taskset"] = {{"name", spec.tasksetName}, {"tasks", spec.taskIds.size()}, {"hash", spec.tasksHash}};
    j["seeds"] = spec.seeds;
    j["baseline"] = spec.designs.empty() ? "" : spec.designs[size_t(summary.baseline)].name;
    j["scorer"] = spec.judge ? "judge" : "reference";
    if (judge)
        j["judge_provenance"] = judge->text();
    j["trials"] = {{"planned", record.plannedTrials}, {"stored", trials.size()}};
    if (!record.note.empty())
        j["note"] = record.note;
    const bool swept = !SweepColumns::of(spec.designs).empty();
    if (swept)
        j["vary"] = spec.vary;
    j["designs"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < summary.designs.size(); ++i) {
        const auto& d = summary.designs[i];
        nlohmann::ordered_json o;
        o["name"] = d.name;
        o["file"] = spec.designs[i].file;
        if (swept)
            o["parameters"] = SweepColumns::parameters(spec.designs[i]);
        o["clock"] = std::string(toString(clocks[i]));
        o["provenance"] = provenances[i].text();
        o["simulated"] = provenances[i].kind == Provenance::Kind::Simulated;
        const auto figures = accuracy(d.overall);
        for (const auto& [key, value] : figures.items())
            o[key] = value;
        o["failed"] = d.failed;
        o["partial"] = d.partial;
        o["by_domain"] = nlohmann::ordered_json::object();
        for (const auto& [domain, a] : d.byDomain)
            o["by_domain"][domain] = accuracy(a);
        o["wall_ms"] = percentiles(d.wallMs);
        o["critical_path_ms"] = percentiles(d.criticalPathMs);
        o["cost_usd"] = {{"mean", d.meanCostUsd}, {"total", d.totalCostUsd}};
        o["judge_cost_usd"] = d.judgeCostUsd;
        o["tokens"] = {{"mean", d.meanTokens}};
        o["calls"] = {{"mean", d.meanCalls}};
        o["pareto"] = {{"cost", d.paretoCost}, {"latency", d.paretoLatency}};
        if (i < predictions.size() && predictions[i]) {
            const auto& p = *predictions[i];
            nlohmann::ordered_json from = nlohmann::ordered_json::array();
            for (const auto& source : p.basis.sources)
                from.push_back({{"experiment", source.experiment}, {"answers", source.answers}});
            o["prediction"] = {{"calibrated_from", std::move(from)},
                               {"models", p.basis.models},
                               {"resamples", p.resamples},
                               {"simulation_ci", interval(p.simulationCi)},
                               {"ci", interval(p.ci)},
                               {"resample_sd", number(p.resampleSd)},
                               {"tasks", p.tasks},
                               {"unmeasured_tasks", p.unmeasuredTasks}};
        }
        if (d.vsBaseline) {
            const auto& v = *d.vsBaseline;
            const auto significance = v.significance();
            o["vs_baseline"] = {{"accuracy_delta", number(v.accuracyDelta)},
                                {"accuracy_delta_ci", interval(v.accuracyDeltaCi)},
                                {"ci_method", std::string(toString(v.accuracyDeltaCiMethod))},
                                {"significant", significance == Significance::Better  ? nlohmann::ordered_json("better")
                                                : significance == Significance::Worse ? nlohmann::ordered_json("worse")
                                                                                      : nlohmann::ordered_json()},
                                {"tasks", v.tasks},
                                {"wins", v.wins},
                                {"losses", v.losses},
                                {"ties", v.ties},
                                {"regressions", v.regressions},
                                {"regressed_tasks", v.regressedTasks},
                                {"pairs", v.pairs},
                                {"cost_ratio", optionalNumber(v.costRatio)},
                                {"wall_p50_ratio", optionalNumber(v.wallP50Ratio)}};
        } else {
            o["vs_baseline"] = nullptr;
        }
        o["agents"] = nlohmann::ordered_json::array();
        for (const auto& a : d.agents)
            o["agents"].push_back({{"node", a.node},
                                   {"critical_path_share", a.criticalPathShare},
                                   {"cost_share", a.costShare},
                                   {"attempts", a.attempts},
                                   {"attempt_ms", percentiles(a.attemptMs)},
                                   {"busy_ms_per_trial", a.busyMsPerTrial}});
        j["designs"].push_back(std::move(o));
    }
    if (curve)
        j["curve"] = SweepCurveText::json(*curve);
    return j;
}

std::string ExperimentReport::csv() const
{
    std::ostringstream out;
    out.precision(10);
    const auto columns = SweepColumns::of(spec.designs);
    out << "design,";
    for (const auto& path : columns.paths)
        out << csvField(path) << ',';
    out << "task,domain,seed,run_id,status,answer,expected,correct,wall_ms,critical_path_ms,cost_usd,tokens,"
           "calls\r\n";
    for (const auto& t : trials) {
        out << csvField(t.designName) << ',';
        if (!columns.empty()) {
            for (const auto& cell : columns.row(size_t(t.design)))
                out << csvField(cell) << ',';
        }
        out << csvField(t.task) << ',' << csvField(t.domain) << ',' << t.seed << ',' << t.runId.str() << ','
            << toString(t.status) << ',' << csvField(t.answer) << ',' << csvField(t.expected) << ','
            << (t.correct ? (*t.correct ? "1" : "0") : "") << ',' << double(t.wallUs) / 1000.0 << ','
            << double(t.criticalPathUs) / 1000.0 << ',' << t.costUsd << ',' << t.tokens << ',' << t.calls << "\r\n";
    }
    return out.str();
}

std::string ExperimentReport::markdown() const
{
    std::ostringstream out;
    out << "## Experiment: " << (record.name.empty() ? record.id : record.name) << "\n\n";
    if (provenance.kind == Provenance::Kind::Simulated)
        out << "> **Simulated.** Results come from Conclave's local-moe simulator, not from real models.\n\n";
    else if (provenance.kind == Provenance::Kind::Replayed)
        out << "> **Replayed.** " << provenance.replayedPercent << " % of the calls were answered from recorded replies"
            << (provenance.replayedPercent == 100 ? " of real models" : ", the rest by real models") << ".\n\n";
    out << "`" << record.id << "` · task set `" << spec.tasksetName << "` (" << spec.taskIds.size() << " tasks) · "
        << spec.seeds.size() << (spec.seeds.size() == 1 ? " seed" : " seeds") << " · " << trials.size() << " of "
        << record.plannedTrials << " trials · " << toString(record.status) << "\n\n";
    if (!record.note.empty())
        out << "_" << record.note << "_\n\n";
    const auto columns = SweepColumns::of(spec.designs);
    out << "| design |";
    for (const auto& path : columns.paths)
        out << " " << path << " |";
    out << " provenance | accuracy (95% CI) | Δ vs baseline (95% CI) | W/L/T | regressions | p50 / p95 wall "
           "| cost / trial | calls / trial | failed | frontier |\n";
    out << "| --- |";
    for (size_t c = 0; c < columns.paths.size(); ++c)
        out << " ---: |";
    out << " --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
    for (size_t i = 0; i < summary.designs.size(); ++i) {
        const auto& d = summary.designs[i];
        std::string frontier = d.paretoCost && d.paretoLatency ? "cost, latency"
                               : d.paretoCost                  ? "cost"
                               : d.paretoLatency               ? "latency"
                                                               : "";
        out << "| " << d.name << " |";
        if (!columns.empty()) {
            for (const auto& cell : columns.row(i))
                out << " " << cell << " |";
        }
        out << " " << provenances[i].text() << " | " << ReportText::percent(d.overall.accuracy) << " "
            << ReportText::ciText(d.overall.ci) << " | " << ReportText::delta(d) << " | " << ReportText::wins(d)
            << " | " << (d.vsBaseline ? std::to_string(d.vsBaseline->regressions) : "-") << " | "
            << ReportText::duration(d.wallMs.p50) << " / " << ReportText::duration(d.wallMs.p95) << " | "
            << moneyText(d.meanCostUsd) << " | " << ReportText::fixed("%.1f", d.meanCalls) << " | " << d.failed << " | "
            << frontier << " |\n";
    }
    std::vector<std::string> domains;
    for (const auto& d : summary.designs)
        for (const auto& [domain, a] : d.byDomain)
            if (std::find(domains.begin(), domains.end(), domain) == domains.end())
                domains.push_back(domain);
    std::sort(domains.begin(), domains.end());
    if (domains.size() > 1) {
        out << "\n| design |";
        for (const auto& domain : domains)
            out << " " << domain << " |";
        out << "\n| --- |";
        for (size_t i = 0; i < domains.size(); ++i)
            out << " ---: |";
        out << "\n";
        for (const auto& d : summary.designs) {
            out << "| " << d.name << " |";
            for (const auto& domain : domains) {
                const auto it = d.byDomain.find(domain);
                out << " " << (it == d.byDomain.end() ? "-" : ReportText::percent(it->second.accuracy)) << " |";
            }
            out << "\n";
        }
    }
    for (const auto& d : summary.designs) {
        if (d.vsBaseline && !d.vsBaseline->regressedTasks.empty()) {
            out << "\n<details><summary>" << d.name << ": " << d.vsBaseline->regressions
                << " tasks below the baseline</summary>\n\n";
            for (const auto& task : d.vsBaseline->regressedTasks)
                out << "- `" << task << "`\n";
            out << "\n</details>\n";
        }
    }
    for (size_t i = 0; i < predictions.size() && i < summary.designs.size(); ++i)
        if (predictions[i])
            out << "\n_" << summary.designs[i].name << ": " << ReportText::prediction(*predictions[i]) << "._\n";
    out << "\n"
        << ciMethods() << " Cost and wall ratios: over the (task, seed) pairs both designs ran. Baseline: "
        << summary.designs[size_t(summary.baseline)].name << ".";
    if (judge)
        out << " Judge: " << judge->text() << ".";
    out << "\n";
    if (curve)
        out << SweepCurveText::markdown(*curve);
    return out.str();
}

std::string ExperimentReport::table() const
{
    const auto columns = SweepColumns::of(spec.designs);
    std::vector<std::vector<std::string>> rows{{"design", "accuracy", "95% CI", "vs baseline", "W/L/T", "p50 wall",
                                                "p95 wall", "cost/trial", "calls", "failed", "clock", "provenance"}};
    rows.front().insert(rows.front().begin() + 1, columns.paths.begin(), columns.paths.end());
    for (size_t i = 0; i < summary.designs.size(); ++i) {
        const auto& d = summary.designs[i];
        rows.push_back({ReportText::percent(d.overall.accuracy), ReportText::ciText(d.overall.ci), ReportText::delta(d),
                        ReportText::wins(d), ReportText::duration(d.wallMs.p50), ReportText::duration(d.wallMs.p95),
                        moneyText(d.meanCostUsd), ReportText::fixed("%.1f", d.meanCalls), std::to_string(d.failed),
                        std::string(toString(clocks[i])), provenances[i].text()});
        const auto cells = columns.empty() ? std::vector<std::string>() : columns.row(i);
        rows.back().insert(rows.back().begin(), cells.begin(), cells.end());
        rows.back().insert(rows.back().begin(), d.name);
    }
    std::string out = ReportText::aligned(rows);
    for (const auto& d : summary.designs) {
        if (!d.vsBaseline)
            continue;
        const auto& v = *d.vsBaseline;
        out += d.name + ": " + std::to_string(v.regressions) + (v.regressions == 1 ? " task" : " tasks") +
               " below the baseline; over the " + std::to_string(v.pairs) + " (task, seed) pairs both ran, cost " +
               ReportText::ratio(v.costRatio) + ", p50 wall " + ReportText::ratio(v.wallP50Ratio) + " the baseline's\n";
    }
    std::vector<std::string> frontier;
    for (const auto& d : summary.designs)
        if (d.paretoCost)
            frontier.push_back(d.name);
    if (!frontier.empty()) {
        out += "accuracy-cost frontier:";
        for (const auto& name : frontier)
            out += " " + name;
        out += "\n";
    }
    for (size_t i = 0; i < predictions.size() && i < summary.designs.size(); ++i)
        if (predictions[i])
            out += summary.designs[i].name + ": " + ReportText::prediction(*predictions[i]) + "\n";
    if (curve)
        out += SweepCurveText::table(*curve);
    out += ciMethods() + "\n";
    if (judge)
        out += "judge: " + judge->text() + "\n";
    if (provenance.kind == Provenance::Kind::Simulated)
        out += "simulated: these results come from the local-moe simulator, not from real models\n";
    else if (provenance.kind == Provenance::Kind::Replayed)
        out +=
            provenance.text() + (provenance.replayedPercent == 100 ? ": the calls were answered from recordings\n"
                                                                   : ": the rest of the calls went to real models\n");
    return out;
}

std::optional<std::string> ExperimentReport::text(std::string_view format) const
{
    if (format == "json")
        return json().dump(2) + "\n";
    if (format == "csv")
        return csv();
    if (format == "md")
        return markdown();
    return std::nullopt;
}

} // namespace conclave
