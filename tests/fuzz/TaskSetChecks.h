#pragma once

// What holds for any task set a reader returns, whichever format it came from.

#include "FuzzCheck.h"

#include "conclave/local/TaskSet.h"

namespace conclave::fuzz {

inline void checkTaskSet(const TaskSet::LoadResult& loaded)
{
    if (!loaded.tasks) {
        check(hasErrors(loaded.problems), "a task set is refused only with an error");
        return;
    }
    check(!hasErrors(loaded.problems), "tasks come back only without errors");
    const auto& set = *loaded.tasks;
    check(set.contentHash().size() == 16, "the content hash is 16 hex digits");
    for (const auto& task : set.tasks()) {
        check(!task.id.empty() && !task.prompt.empty(), "every task has an id and a prompt");
        check(set.byId(task.id) == &task, "an id finds its own task");
        const Task* found = set.find(task.prompt);
        check(found != nullptr, "a task's prompt finds a task");
    }
}

} // namespace conclave::fuzz
