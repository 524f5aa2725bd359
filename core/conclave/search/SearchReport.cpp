#include "conclave/search/SearchReport.h"

#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/io/ContentHash.h"
#include "conclave/util/MoneyText.h"

#include <cmath>
#include <cstdio>

namespace conclave {

namespace {

using Json = nlohmann::ordered_json;

Json interval(const Interval& i)
{
    if (std::isnan(i.lo) || std::isnan(i.hi))
        return nullptr;
    return Json::array({i.lo, i.hi});
}

Json figuresJson(const ObjectiveFigures& f)
{
    Json j;
    j["tasks"] = f.tasks;
    j["trials"] = f.trials;
    for (size_t o = 0; o < kObjectiveCount; ++o)
        j[std::string(toString(Objective(o)))] = f.value[o];
    return j;
}

std::string fixed(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string pt(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%+.1f", 100 * value);
    return text;
}

std::string ciText(const Json& ci, double scale, int decimals)
{
    if (!ci.is_array())
        return "-";
    return "[" + fixed(scale * ci[0].get<double>(), decimals) + ", " + fixed(scale * ci[1].get<double>(), decimals) +
           "]";
}

std::string pad(std::string text, size_t width)
{
    if (text.size() < width)
        text += std::string(width - text.size(), ' ');
    return text;
}

std::string padLeft(std::string text, size_t width)
{
    if (text.size() < width)
        text = std::string(width - text.size(), ' ') + text;
    return text;
}

Json testJson(const DesignSummary& d)
{
    Json j;
    j["accuracy"] = d.overall.accuracy;
    j["accuracy_ci"] = interval(d.overall.ci);
    j["cost_usd"] = d.meanCostUsd;
    j["p50_wall_ms"] = d.wallMs.p50;
    j["p95_wall_ms"] = d.wallMs.p95;
    j["calls"] = d.meanCalls;
    j["tokens"] = d.meanTokens;
    j["tasks"] = d.overall.tasks;
    if (d.vsBaseline) {
        j["delta_accuracy"] = d.vsBaseline->accuracyDelta;
        j["delta_ci"] = interval(d.vsBaseline->accuracyDeltaCi);
        j["cost_ratio"] = d.vsBaseline->costRatio ? Json(*d.vsBaseline->costRatio) : Json(nullptr);
        const auto s = d.vsBaseline->significance();
        j["significance"] = s == Significance::Better ? "better" : s == Significance::Worse ? "worse" : "not shown";
    }
    return j;
}

} // namespace

Json SearchReport::specJson(const SearchSpace& space, const std::string& tasksetName, const TaskSet& tasks,
                            const DesignSearch::Options& options)
{
    Json spec;
    auto bases = Json::array();
    for (const auto& b : space.bases()) {
        const auto design = makeDesign(b.team.name, b.file, b.team);
        bases.push_back(Json{{"file", b.file}, {"hash", design.hash}});
    }
    spec["bases"] = std::move(bases);
    spec["parameters"] = space.toJson()["parameters"];
    spec["taskset"] = tasksetName;
    spec["tasks"] = tasks.tasks().size();
    spec["tasks_hash"] = tasks.contentHash();
    spec["split"] = options.split;
    spec["seed"] = options.seed;
    spec["seeds"] = options.trialSeeds;
    auto objectives = Json::array();
    for (const auto o : options.objectives)
        objectives.push_back(toString(o));
    spec["objectives"] = std::move(objectives);
    auto constraints = Json::array();
    for (const auto& c : options.constraints)
        constraints.push_back(c.text);
    spec["constraints"] = std::move(constraints);
    spec["budget_trials"] = options.budgetTrials ? Json(*options.budgetTrials) : Json(nullptr);
    spec["budget_seconds"] = options.budgetSeconds ? Json(*options.budgetSeconds) : Json(nullptr);
    spec["eta"] = options.eta;
    spec["population"] = options.population;
    auto references = Json::array();
    for (const auto& r : options.references) {
        const auto design = makeDesign(r.team.name, r.file, r.team);
        references.push_back(Json{{"file", r.file}, {"hash", design.hash}});
    }
    spec["references"] = std::move(references);
    return spec;
}

std::string SearchReport::idOf(const Json& spec)
{
    auto identity = spec;
    for (auto* list : {&identity["bases"], &identity["references"]}) {
        for (auto& b : *list)
            b.erase("file");
    }
    identity.erase("taskset"); // the tasks are known by their content
    return "s-" + contentHash(identity.dump()).substr(0, 12);
}

Json SearchReport::toJson(const DesignSearch::Result& result, const DesignSearch::Options& options,
                          const std::string& id, const std::string& command, const std::vector<std::string>& files)
{
    Json j;
    j["id"] = id;
    j["status"] = result.status == DesignSearch::Status::Finished  ? "finished"
                  : result.status == DesignSearch::Status::Stopped ? "stopped"
                                                                   : "failed";
    j["note"] = result.note;
    if (!result.error.empty())
        j["error"] = result.error;
    j["simulated"] = true;
    j["command"] = command;
    auto objectives = Json::array();
    for (const auto o : options.objectives)
        objectives.push_back(toString(o));
    j["objectives"] = std::move(objectives);
    auto constraints = Json::array();
    for (const auto& c : options.constraints)
        constraints.push_back(c.text);
    j["constraints"] = constraints;
    j["parts"] = Json{{"search", result.parts.search.size()},
                      {"validation", result.parts.validation.size()},
                      {"test", result.parts.test.size()},
                      {"trained_on", result.parts.trainedOn},
                      {"fitted", result.parts.fitted},
                      {"blind_note", result.parts.blindNote},
                      {"notes", result.parts.notes}};
    j["seeds"] = options.trialSeeds;
    j["rungs"] = result.rungTasks;
    j["level"] = result.level;
    j["spent"] = Json{{"search_trials", result.searchTrials}, {"kept_trials", result.keptTrials},
                      {"validation_trials", result.validationTrials}, {"test_trials", result.testTrials},
                      {"seconds", result.seconds}, {"generations", result.generations},
                      {"exhausted", result.exhausted}};
    size_t dropped = 0;
    size_t front = 0;
    size_t twins = 0;
    for (const auto& c : result.candidates) {
        dropped += c.status == CandidateStatus::Dropped ? 1 : 0;
        front += c.status == CandidateStatus::Front ? 1 : 0;
        twins += c.status != CandidateStatus::Dropped && c.twinOf != 0 ? 1 : 0;
    }
    j["candidates"] = Json{{"proposed", result.candidates.size()},
                           {"dropped", dropped},
                           {"twins", twins},
                           {"alive", result.candidates.size() - dropped - front - twins},
                           {"front", front}};

    const auto designOf = [&](int candidate) -> const DesignSummary* {
        if (!result.test)
            return nullptr;
        for (size_t d = 0; d < result.testCandidates.size(); ++d) {
            if (result.testCandidates[d] == candidate && d < result.test->designs.size())
                return &result.test->designs[d];
        }
        return nullptr;
    };
    auto baselines = Json::array();
    if (result.test) {
        for (size_t d = 0; d < result.testCandidates.size(); ++d) {
            const int c = result.testCandidates[d];
            const bool inFront = c != 0 && std::find(result.front.begin(), result.front.end(), c) != result.front.end();
            const bool asDrawn = c != 0 && result.candidates[size_t(c - 1)].asDrawn();
            if (inFront && !asDrawn)
                continue;
            Json b;
            b["name"] = result.testDesigns[d];
            b["kind"] = c == 0 ? "reference" : "base";
            if (c != 0)
                b["candidate"] = c;
            b["test"] = testJson(result.test->designs[d]);
            baselines.push_back(std::move(b));
        }
    }
    j["baselines"] = std::move(baselines);

    const auto& list = result.front.empty() ? result.searchFront : result.front;
    auto designs = Json::array();
    for (size_t i = 0; i < list.size(); ++i) {
        const auto& c = result.candidates[size_t(list[i] - 1)];
        Json d;
        d["candidate"] = c.id;
        d["name"] = c.name;
        d["base"] = c.point.base;
        d["as_drawn"] = c.asDrawn();
        auto parameters = Json::object();
        for (const auto& p : c.parameters)
            parameters[p.path] = p.value;
        d["parameters"] = std::move(parameters);
        auto twinList = Json::array();
        for (const auto& other : result.candidates) {
            if (other.twinOf == c.id)
                twinList.push_back(other.id);
        }
        d["twins"] = std::move(twinList);
        if (const auto it = result.searchFigures.find(c.id); it != result.searchFigures.end())
            d["search"] = figuresJson(it->second);
        if (const auto it = result.validationFigures.find(c.id); it != result.validationFigures.end())
            d["validation"] = figuresJson(it->second);
        if (const auto* t = designOf(c.id)) {
            d["test"] = testJson(*t);
            if (const auto v = result.validationFigures.find(c.id); v != result.validationFigures.end())
                d["validation_to_test"] = t->overall.accuracy - v->second[Objective::Accuracy];
            auto crossing = Json::array();
            for (const auto& k : options.constraints) {
                if (k.objective == Objective::Accuracy &&
                    !(t->overall.ci.lo >= k.bound && k.atLeast) && !(t->overall.ci.hi <= k.bound && !k.atLeast))
                    crossing.push_back(k.text);
            }
            d["constraint_ci_crosses"] = std::move(crossing);
        }
        d["file"] = i < files.size() ? Json(files[i]) : Json(nullptr);
        d["team"] = nlohmann::json::parse(c.teamJson, nullptr, false);
        designs.push_back(std::move(d));
    }
    j["front"] = std::move(designs);
    return j;
}

std::string SearchReport::text(const Json& r)
{
    std::string out;
    const auto line = [&](const std::string& text) { out += text + "\n"; };
    const auto& parts = r["parts"];
    const auto& spent = r["spent"];
    line("design search " + r.value("id", std::string()) + ": " + r.value("status", std::string()) +
         (r.value("note", std::string()).empty() ? "" : " (" + r["note"].get<std::string>() + ")") +
         " - on the simulator (local-moe), not measured on real models");
    const auto& seeds = r["seeds"];
    line("tasks: search " + std::to_string(parts["search"].get<int64_t>()) + ", validation " +
         std::to_string(parts["validation"].get<int64_t>()) + ", test " +
         std::to_string(parts["test"].get<int64_t>()) + "; " + std::to_string(seeds.size()) +
         (seeds.size() == 1 ? " seed" : " seeds"));
    for (const auto& note : parts["notes"])
        line("  " + note.get<std::string>());
    if (!parts["blind_note"].get<std::string>().empty())
        line("  " + parts["blind_note"].get<std::string>());
    std::string rungs;
    for (const auto& n : r["rungs"])
        rungs += (rungs.empty() ? "" : ", ") + std::to_string(n.get<int64_t>());
    line("rungs: " + rungs + " search tasks; a candidate is dropped when another is shown better at " +
         fixed(100 * r["level"].get<double>(), 2) + " %");
    line("spent: " + std::to_string(spent["search_trials"].get<int64_t>()) + " search trials (" +
         std::to_string(spent["kept_trials"].get<int64_t>()) + " read back from an earlier run), " +
         std::to_string(spent["validation_trials"].get<int64_t>()) + " validation, " +
         std::to_string(spent["test_trials"].get<int64_t>()) + " test; " +
         fixed(spent["seconds"].get<double>(), 1) + " s, " + std::to_string(spent["generations"].get<int64_t>()) +
         " generations" + (spent["exhausted"].get<bool>() ? "; every point of the space proposed" : ""));
    const auto& c = r["candidates"];
    line("candidates: " + std::to_string(c["proposed"].get<int64_t>()) + " proposed, " +
         std::to_string(c["dropped"].get<int64_t>()) + " dropped (another shown better), " +
         std::to_string(c.value("twins", int64_t(0))) + " twins (every trial as an earlier one's), " +
         std::to_string(c["alive"].get<int64_t>()) + " alive, " + std::to_string(c["front"].get<int64_t>()) +
         " on the front");
    if (r.contains("error"))
        line("error: " + r["error"].get<std::string>());

    const auto& baselines = r["baselines"];
    const auto& front = r["front"];
    const bool tested = !baselines.empty();
    line("");
    // Each design on two lines: its figures, then what it is.
    const auto what = [](const Json& d) {
        std::string text;
        for (const auto& [path, value] : d["parameters"].items())
            text += (text.empty() ? "" : ", ") + path + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
        text = text.empty() ? "the base as drawn" : text;
        if (d.contains("twins") && !d["twins"].empty())
            text += " (and " + std::to_string(d["twins"].size()) + (d["twins"].size() == 1 ? " twin)" : " twins)");
        return text;
    };
    if (!tested) {
        line("front so far, on the search part (not measured on validation or test):");
        line("  #      accuracy  cost/trial  p95 wall");
        for (const auto& d : front) {
            if (!d.contains("search"))
                continue;
            const auto& f = d["search"];
            line("  " + pad("#" + std::to_string(d["candidate"].get<int>()), 6) + " " +
                 padLeft(fixed(100 * f["accuracy"].get<double>(), 1) + " %", 8) + "  " +
                 padLeft(moneyText(f["cost"].get<double>()), 10) + "  " +
                 padLeft(fixed(f["p95_wall"].get<double>(), 0) + " ms", 8));
            line("         " + what(d));
        }
    } else {
        line("measured once on the " + std::to_string(parts["test"].get<int64_t>()) +
             " test tasks; delta and x cost against " + baselines[0]["name"].get<std::string>() + ":");
        line("  #      accuracy  95% CI        delta (pt)  95% CI          cost/trial  x cost  p95 wall   "
             "val->test");
        const auto row = [&](const std::string& id, const Json& t, const Json* d) {
            std::string delta = "-";
            std::string deltaCi;
            if (t.contains("delta_accuracy")) {
                delta = pt(t["delta_accuracy"].get<double>());
                deltaCi = ciText(t["delta_ci"], 100, 1);
            }
            const std::string ratio =
                t.contains("cost_ratio") && t["cost_ratio"].is_number() ? fixed(t["cost_ratio"].get<double>(), 2) : "-";
            std::string drop = "-";
            if (d && d->contains("validation_to_test"))
                drop = pt((*d)["validation_to_test"].get<double>()) + " pt";
            line("  " + pad(id, 6) + " " + padLeft(fixed(100 * t["accuracy"].get<double>(), 1) + " %", 8) + "  " +
                 pad(ciText(t["accuracy_ci"], 100, 1), 12) + "  " + padLeft(delta, 10) + "  " + pad(deltaCi, 14) +
                 "  " + padLeft(moneyText(t["cost_usd"].get<double>()), 10) + "  " + padLeft(ratio, 6) + "  " +
                 padLeft(fixed(t["p95_wall_ms"].get<double>(), 0) + " ms", 9) + "  " + padLeft(drop, 9));
        };
        for (const auto& b : baselines) {
            row(b["kind"] == "reference" ? "ref" : "base", b["test"], nullptr);
            line("         " + b["name"].get<std::string>());
        }
        for (const auto& d : front) {
            if (!d.contains("test"))
                continue;
            row("#" + std::to_string(d["candidate"].get<int>()), d["test"], &d);
            line("         " + what(d));
            if (d.contains("constraint_ci_crosses") && !d["constraint_ci_crosses"].empty())
                line("         its test CI crosses " + d["constraint_ci_crosses"][0].get<std::string>());
        }
    }
    std::vector<std::string> written;
    for (const auto& d : front) {
        if (d["file"].is_string())
            written.push_back(d["file"].get<std::string>());
    }
    if (!written.empty()) {
        line("");
        line("wrote " + std::to_string(written.size()) + " team files:");
        for (const auto& f : written)
            line("  " + f);
    }
    if (!r.value("command", std::string()).empty()) {
        line("");
        line("reproduce: " + r["command"].get<std::string>());
    }
    return out;
}

} // namespace conclave
