#include "conclave/search/FrontConfirmation.h"

#include "conclave/search/CandidateTrials.h"
#include "conclave/util/MoneyText.h"

#include <algorithm>
#include <map>

#include <cmath>
#include <cstdio>
#include <set>

namespace conclave {

namespace {

bool serves(const Backend& backend, const std::string& model)
{
    if (backend.kind == BackendKind::Recorded)
        return true;
    if (backend.kind == BackendKind::OpenAi)
        return backend.prices && backend.prices->count(model);
    return false;
}

std::string fixed(double value, int decimals)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

} // namespace

std::optional<Team> FrontConfirmation::rebind(const Team& design, const Team& backends, const std::string& label,
                                              std::string& error)
{
    Team out = design;
    std::string served;
    std::set<std::string> listed;
    for (const auto& [name, backend] : backends.backends) {
        if (backend.kind == BackendKind::Recorded)
            served += (served.empty() ? "" : ", ") + name.str() + " (recorded: every model)";
        for (const auto& [model, price] : backend.prices.value_or(std::map<std::string, Price>{})) {
            if (listed.insert(model).second)
                served += (served.empty() ? "" : ", ") + model;
        }
    }
    const auto defaultBackend = design.defaults && design.defaults->backend ? *design.defaults->backend : BackendName();
    const auto defaultModel = design.defaults ? design.defaults->model : std::nullopt;
    for (auto& node : out.nodes) {
        if (!node.callsModel())
            continue;
        auto& call = node.config.call;
        const auto backendName = call.backend.value_or(defaultBackend);
        const auto it = design.backends.find(backendName);
        if (it == design.backends.end() || it->second.kind != BackendKind::LocalMoe)
            continue;
        std::vector<std::string> models;
        if (auto model = call.model ? call.model : defaultModel)
            models.push_back(*model);
        if (call.fallbackModel)
            models.push_back(*call.fallbackModel);
        std::optional<BackendName> chosen;
        for (const auto& [name, backend] : backends.backends) {
            bool all = !models.empty();
            for (const auto& m : models)
                all = all && serves(backend, m);
            if (all) {
                chosen = name;
                break;
            }
        }
        if (!chosen) {
            std::string missing;
            for (const auto& m : models) {
                bool any = false;
                for (const auto& [name, backend] : backends.backends)
                    any = any || serves(backend, m);
                if (!any)
                    missing = m;
            }
            error = label + ": no backend serves " + (missing.empty() ? models.front() : missing) + ", which " +
                    node.id.str() + " of " + design.name + " calls (its backends serve: " +
                    (served.empty() ? std::string("nothing") : served) + ")";
            return std::nullopt;
        }
        call.backend = *chosen;
        if (!call.model && defaultModel)
            call.model = defaultModel;
    }
    // Its own local-moe backends go; the file's come in.
    for (auto it = out.backends.begin(); it != out.backends.end();) {
        it = it->second.kind == BackendKind::LocalMoe ? out.backends.erase(it) : std::next(it);
    }
    for (const auto& [name, backend] : backends.backends)
        out.backends[name] = backend;
    if (out.defaults && out.defaults->backend && !out.backends.count(*out.defaults->backend))
        out.defaults->backend.reset();
    return out;
}

void FrontConfirmation::markDominated(std::vector<Row>& rows, const std::vector<TrialRecord>& trials,
                                      const std::vector<std::string>& taskIds, const std::vector<uint64_t>& seeds,
                                      const std::vector<Objective>& objectives)
{
    std::map<std::string, size_t> taskIndex;
    for (size_t t = 0; t < taskIds.size(); ++t)
        taskIndex[taskIds[t]] = t;
    std::vector<CandidateTrials> measured(rows.size(), CandidateTrials(taskIds.size(), seeds.size()));
    for (const auto& trial : trials) {
        const auto t = taskIndex.find(trial.task);
        const auto s = std::find(seeds.begin(), seeds.end(), trial.seed);
        if (trial.design < 0 || size_t(trial.design) >= rows.size() || t == taskIndex.end() || s == seeds.end())
            continue;
        measured[size_t(trial.design)].set(t->second, size_t(s - seeds.begin()), TrialCell::of(trial));
    }
    std::vector<size_t> all(taskIds.size());
    for (size_t t = 0; t < all.size(); ++t)
        all[t] = t;
    for (size_t i = 0; i < rows.size(); ++i) {
        for (size_t j = 0; j < rows.size() && rows[i].dominatedBy.empty(); ++j) {
            if (j == i)
                continue;
            if (auto evidence = CandidateDominance::shown(measured[j], measured[i], all, objectives, 0.95, 7919 * j + i))
                rows[i].dominatedBy = rows[j].name + ": " + *evidence;
        }
    }
}

std::string FrontConfirmation::text(const std::vector<Row>& rows, size_t tasks)
{
    const auto pad = [](std::string text, size_t width, bool left = false) {
        if (text.size() < width)
            text = left ? std::string(width - text.size(), ' ') + text : text + std::string(width - text.size(), ' ');
        return text;
    };
    std::string out = "the front on real models, the " + std::to_string(tasks) +
                      " test tasks: predicted (simulator) against measured\n";
    out += "  design  accuracy: predicted  measured  95% CI              cost: predicted    measured    "
           "p95 wall: predicted  measured\n";
    size_t inside = 0;
    size_t kept = 0;
    for (const auto& r : rows) {
        if (!r.measured)
            continue;
        const auto& m = *r.measured;
        inside += r.accuracyInside ? 1 : 0;
        kept += r.dominatedBy.empty() ? 1 : 0;
        out += "  " + pad(r.name.substr(0, r.name.find(' ')), 6) + "  " +
               pad(fixed(100 * r.predicted[Objective::Accuracy], 1) + " %", 19, true) + "  " +
               pad(fixed(100 * m.overall.accuracy, 1) + " %", 8, true) + "  " +
               pad("[" + fixed(100 * m.overall.ci.lo, 1) + ", " + fixed(100 * m.overall.ci.hi, 1) + "]" +
                       (r.accuracyInside ? " in" : " OUT"),
                   18) +
               "  " + pad(moneyText(r.predicted[Objective::Cost]), 15, true) + "  " + pad(moneyText(m.meanCostUsd), 10, true) +
               "  " + pad(fixed(r.predicted[Objective::P95Wall], 0) + " ms", 19, true) + "  " +
               pad(fixed(m.wallMs.p95, 0) + " ms", 8, true) + "\n";
        out += "          " + r.name.substr(r.name.find(' ') == std::string::npos ? r.name.size() : r.name.find(' ') + 1) +
               (r.dominatedBy.empty() ? std::string() : "; measured, another is shown better: " + r.dominatedBy) + "\n";
    }
    out += "  " + std::to_string(inside) + " of " + std::to_string(rows.size()) +
           " predictions of accuracy inside the measured 95 % CI; " + std::to_string(kept) + " of " +
           std::to_string(rows.size()) + " front designs still on the front where measured (none shown better by a "
           "paired 95 % CI)\n";
    return out;
}

} // namespace conclave
