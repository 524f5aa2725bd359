#include "Commands.h"

#include "conclave/io/TeamFile.h"

#include <algorithm>
#include <ostream>

namespace conclave::cli {

int runValidate(const CliContext& context, const std::vector<std::string>& files)
{
    auto validation = context.validationContext();
    bool allValid = true;
    for (const auto& file : files) {
        validation.teamFolder = std::filesystem::path(file).parent_path();
        auto result = loadTeamFile(file);
        auto problems = std::move(result.problems);
        if (result.team) {
            auto more = validate(*result.team, validation);
            problems.insert(problems.end(), more.begin(), more.end());
        }
        for (const auto& problem : problems)
            context.out << formatProblem(problem, file) << '\n';
        const auto warnings =
            std::count_if(problems.begin(), problems.end(), [](const Problem& p) { return !p.isError(); });
        const auto errors = static_cast<long>(problems.size()) - warnings;
        if (errors > 0) {
            allValid = false;
            context.out << file << ": invalid (" << errors << (errors == 1 ? " error" : " errors");
        } else {
            context.out << file << ": valid (";
        }
        if (errors > 0 && warnings > 0)
            context.out << ", ";
        if (warnings > 0 || errors == 0)
            context.out << warnings << (warnings == 1 ? " warning" : " warnings");
        context.out << ")\n";
    }
    return allValid ? kExitOk : kExitBadInput;
}

} // namespace conclave::cli
