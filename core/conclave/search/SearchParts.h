#pragma once

#include "conclave/local/TaskSet.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace conclave {

// A design search's tasks split into search, validation and test parts, as indices into the task set, each
// part in the order of its tasks' TaskSplit positions (so a rung's prefix is a fixed sample).
struct SearchParts {
    std::vector<size_t> search;
    std::vector<size_t> validation;
    std::vector<size_t> test;
    size_t trainedOn = 0;  // tasks a router or scorer file was trained on: kept in the search part
    size_t fitted = 0;     // tasks with a fitted difficulty kept in the search part
    std::string blindNote; // set when the test is not blind, saying why
    std::vector<std::string> notes;

    // The parts of `tasks` under `fractions` (TaskSplit with `seed`; three of them): tasks in `trained` (ids)
    // and, while validation and test keep a task each, tasks with a fitted difficulty go to the search part.
    // Unset, with `error`, when a part would hold fewer than 2 tasks.
    static std::optional<SearchParts> make(const TaskSet& tasks, const std::vector<double>& fractions, uint64_t seed,
                                           const std::set<std::string>& trained, std::string& error);
};

} // namespace conclave
