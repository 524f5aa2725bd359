#pragma once

// The problems a task-set load reported, as `formatProblem` prints them.
#include "conclave/local/TaskSet.h"

#include <QString>
#include <QStringList>

namespace testsupport {

inline QString firstProblem(const conclave::TaskSet::LoadResult& result, const char* source = "f")
{
    return result.problems.empty() ? QString()
                                   : QString::fromStdString(conclave::formatProblem(result.problems.front(), source));
}

inline QStringList allProblems(const conclave::TaskSet::LoadResult& result, const std::string& source = "f")
{
    QStringList out;
    for (const auto& p : result.problems)
        out << QString::fromStdString(conclave::formatProblem(p, source));
    return out;
}

} // namespace testsupport
