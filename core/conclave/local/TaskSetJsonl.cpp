// TaskSet's writer: tasks as the JSON Lines load() reads.
#include "conclave/local/TaskSet.h"

#include <nlohmann/json.hpp>

namespace conclave {

std::string TaskSet::toJsonl(const std::vector<Task>& tasks)
{
    std::string out;
    for (const auto& task : tasks) {
        nlohmann::ordered_json line;
        line["id"] = task.id;
        line["domain"] = task.domain;
        line["prompt"] = task.prompt;
        if (!task.answer.empty())
            line["answer"] = task.answer;
        if (!task.choices.empty())
            line["choices"] = task.choices;
        if (task.tolerance)
            line["tolerance"] = *task.tolerance;
        if (task.difficulty)
            line["difficulty"] = *task.difficulty;
        for (const auto& [key, value] : task.metadata)
            line[key] = value;
        out += line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        out += '\n';
    }
    return out;
}

} // namespace conclave
