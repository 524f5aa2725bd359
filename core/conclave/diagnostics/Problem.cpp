#include "conclave/diagnostics/Problem.h"

#include <algorithm>

namespace conclave {

bool hasErrors(const std::vector<Problem>& problems)
{
    return std::any_of(problems.begin(), problems.end(), [](const Problem& p) { return p.isError(); });
}

std::string formatProblem(const Problem& problem, std::string_view source)
{
    std::string out(source);
    if (problem.line > 0) {
        out += ':' + std::to_string(problem.line) + ':' + std::to_string(problem.column);
    } else if (!problem.pointer.empty()) {
        out += ": ";
        out += problem.pointer;
    }
    out += ": ";
    if (problem.severity == Severity::Warning)
        out += "warning: ";
    out += problem.message;
    return out;
}

std::string problemText(const Problem& problem)
{
    if (problem.line > 0)
        return std::to_string(problem.line) + ":" + std::to_string(problem.column) + ": " + problem.message;
    return problem.pointer.empty() ? problem.message : problem.pointer + ": " + problem.message;
}

std::string childPointer(std::string_view pointer, std::string_view key)
{
    std::string out(pointer);
    out += '/';
    for (const char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string childPointer(std::string_view pointer, size_t index)
{
    return std::string(pointer) + '/' + std::to_string(index);
}

} // namespace conclave
