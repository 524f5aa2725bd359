#include "conclave/search/SearchParts.h"

#include "conclave/experiment/TaskSplit.h"

#include <algorithm>

namespace conclave {

std::optional<SearchParts> SearchParts::make(const TaskSet& tasks, const std::vector<double>& fractions, uint64_t seed,
                                             const std::set<std::string>& trained, std::string& error)
{
    auto splitter = TaskSplit::make(fractions, seed, error);
    if (!splitter)
        return std::nullopt;
    if (fractions.size() != 3) {
        error = "a search's split has three parts (search/validation/test), not " + std::to_string(fractions.size());
        return std::nullopt;
    }
    const auto hash = tasks.contentHash();
    std::vector<std::pair<double, size_t>> placed[3];
    std::vector<std::pair<double, size_t>> fitted; // fitted tasks the split put in validation or test
    SearchParts parts;
    for (size_t t = 0; t < tasks.tasks().size(); ++t) {
        const auto& task = tasks.tasks()[t];
        const double position = splitter->position(hash, task.id);
        auto part = splitter->partOf(hash, task.id);
        if (part != 0 && trained.count(task.id)) {
            part = 0;
            ++parts.trainedOn;
        }
        if (part != 0 && task.difficulty)
            fitted.emplace_back(position, t);
        else
            placed[part].emplace_back(position, t);
    }
    if (!fitted.empty()) {
        // Fitted tasks stay out of validation and test while each keeps a task of its own.
        if (!placed[1].empty() && !placed[2].empty()) {
            parts.fitted = fitted.size();
            placed[0].insert(placed[0].end(), fitted.begin(), fitted.end());
        } else {
            for (const auto& [position, t] : fitted)
                placed[splitter->partOf(hash, tasks.tasks()[t].id)].emplace_back(position, t);
            parts.blindNote = "the test is not blind: " + std::to_string(fitted.size()) +
                              " validation and test tasks have difficulties fitted from measurements";
        }
    }
    for (auto& p : placed)
        std::sort(p.begin(), p.end());
    const auto indices = [](const std::vector<std::pair<double, size_t>>& p) {
        std::vector<size_t> out;
        for (const auto& [position, t] : p)
            out.push_back(t);
        return out;
    };
    parts.search = indices(placed[0]);
    parts.validation = indices(placed[1]);
    parts.test = indices(placed[2]);
    const char* names[] = {"search", "validation", "test"};
    for (size_t i = 0; i < 3; ++i) {
        if (placed[i].size() < 2) {
            error = std::string("the ") + names[i] + " part has " + std::to_string(placed[i].size()) + " task" +
                    (placed[i].size() == 1 ? "" : "s") + " of " + std::to_string(tasks.tasks().size()) +
                    "; a paired interval needs at least 2 (use more tasks, or another --split)";
            return std::nullopt;
        }
    }
    if (parts.trainedOn > 0)
        parts.notes.push_back(std::to_string(parts.trainedOn) +
                              " tasks a router or scorer file was trained on kept in the search part");
    if (parts.fitted > 0)
        parts.notes.push_back(std::to_string(parts.fitted) +
                              " tasks with difficulties fitted from measurements kept in the search part");
    return parts;
}

} // namespace conclave
