#include "Commands.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"
#include "conclave/io/TeamFile.h"

#include <ostream>

namespace conclave::cli {

int runFormat(const CliContext& context, const std::vector<std::string>& files, bool check)
{
    int code = kExitOk;
    for (const auto& file : files) {
        const auto original = readFileText(file, JsonLimits{}.maxBytes);
        if (!original.text) {
            context.err << file << ": " << original.error << '\n';
            code = kExitBadInput;
            continue;
        }
        const auto result = teamFromJsonText(*original.text);
        if (!result.team) {
            for (const auto& problem : result.problems) {
                if (problem.isError())
                    context.err << formatProblem(problem, file) << '\n';
            }
            code = kExitBadInput;
            continue;
        }
        const auto canonical = teamToJsonText(*result.team);
        if (canonical == *original.text)
            continue;
        if (check) {
            context.out << file << ": not in canonical form (run conclave fmt " << file << ")\n";
            if (code == kExitOk)
                code = kExitFailed;
            continue;
        }
        if (const auto error = writeFileAtomically(file, canonical)) {
            context.err << file << ": " << *error << '\n';
            code = kExitBadInput;
            continue;
        }
        context.out << file << ": formatted\n";
    }
    return code;
}

} // namespace conclave::cli
