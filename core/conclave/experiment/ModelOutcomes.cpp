#include "conclave/experiment/ModelOutcomes.h"

#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/store/RunQueries.h"

#include <algorithm>

namespace conclave {

std::string ModelOutcomes::singleModel(const Team& team)
{
    std::string model;
    int calling = 0;
    for (const auto& node : team.nodes) {
        if (!node.callsModel())
            continue;
        ++calling;
        if (node.kind == NodeKind::Expert)
            model = node.config.call.model.value_or("");
    }
    return calling == 1 ? model : std::string();
}

void ModelOutcomes::add(const std::string& set, const std::string& setHash, const Task& task, const std::string& model,
                        uint64_t seed, Outcome outcome)
{
    auto& entry = m_tasks[set + "\n" + task.id];
    if (entry.task.id.empty()) {
        entry.set = set;
        entry.setHash = setHash;
        entry.task = task;
    }
    entry.byModel[model][seed] = outcome;
    if (std::find(m_models.begin(), m_models.end(), model) == m_models.end()) {
        m_models.push_back(model);
        std::sort(m_models.begin(), m_models.end());
    }
}

std::optional<ModelOutcomes> ModelOutcomes::read(RunQueries& store, const std::vector<std::string>& experimentIds,
                                                 const std::filesystem::path& resourcesDir, std::string& error)
{
    ModelOutcomes out;
    for (const auto& id : experimentIds) {
        std::string why;
        const auto record = store.experiment(id, why);
        if (!record) {
            error = why;
            return std::nullopt;
        }
        const auto fail = [&](const std::string& message) {
            error = "experiment " + record->id + ": " + message;
            return std::nullopt;
        };
        const auto spec = StoredSpec::fromJson(record->specJson, why);
        if (!spec)
            return fail(why);
        std::map<int, std::string> modelOf;
        for (size_t d = 0; d < spec->designs.size(); ++d) {
            const auto model = singleModel(spec->designs[d].team);
            if (!model.empty())
                modelOf[int(d)] = model;
        }
        if (modelOf.empty())
            return fail("has no single-model design (one expert alone): nothing to replay a route from");
        std::vector<std::string> errors, warnings;
        const auto tasks = ExperimentSetup::storedTasks(*spec, resourcesDir, errors, warnings);
        if (!tasks)
            return fail(errors.empty() ? "its tasks cannot be reloaded" : errors.front());
        const auto trials = store.trials(record->id, why);
        if (!trials)
            return fail(why);
        const auto hash = tasks->contentHash();
        for (const auto& trial : *trials) {
            const auto model = modelOf.find(trial.design);
            const Task* task = tasks->byId(trial.task);
            if (model == modelOf.end() || !task || !trial.correct)
                continue;
            out.add(spec->tasksetName, hash, *task, model->second, trial.seed, {*trial.correct, trial.costUsd});
        }
    }
    return out;
}

} // namespace conclave
