#pragma once

#include "conclave/local/TaskSet.h"
#include "conclave/model/Team.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class RunQueries;

// What each model did alone, per task and seed, read from stored experiments'
// single-model designs (a design whose team makes exactly one model call per
// run: one expert): whether its answer was right and what the trial cost. A
// router or cascade over those models can be replayed from this: routing a
// task to model M gets M's measured answer on it (RouterEvaluation).
class ModelOutcomes {
public:
    struct Outcome {
        bool correct = false;
        double costUsd = 0;
    };
    struct TaskOutcomes {
        std::string set;     // the task set's name, as the experiment named it
        std::string setHash; // TaskSet::contentHash of that set (TaskSplit's key)
        Task task;
        // [model][seed] → outcome; a model or seed missing when it did not run there
        std::map<std::string, std::map<uint64_t, Outcome>> byModel;
    };

    // Unset with `error` when an experiment is unknown, has no single-model
    // design, or its task set cannot be reloaded unchanged.
    static std::optional<ModelOutcomes> read(RunQueries& store, const std::vector<std::string>& experimentIds,
                                             const std::filesystem::path& resourcesDir, std::string& error);

    // The model of a team that makes exactly one model call per run (one
    // expert, nothing else calling), else "": what a single-model design is.
    static std::string singleModel(const Team& team);

    const std::vector<std::string>& models() const { return m_models; }
    // By key "set\nid", in key order.
    const std::map<std::string, TaskOutcomes>& tasks() const { return m_tasks; }

    // Fills from outside a store (tests, benches).
    void add(const std::string& set, const std::string& setHash, const Task& task, const std::string& model,
             uint64_t seed, Outcome outcome);

private:
    std::vector<std::string> m_models;
    std::map<std::string, TaskOutcomes> m_tasks;
};

} // namespace conclave
