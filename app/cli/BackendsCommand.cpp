#include "Commands.h"

#include "conclave/http/BackendProbe.h"
#include "conclave/http/HttpHub.h"
#include "conclave/io/TeamFile.h"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace conclave::cli {

int runBackendsCheck(const CliContext& context, const std::string& file)
{
    auto loaded = loadTeamFile(file);
    auto problems = std::move(loaded.problems);
    if (loaded.team) {
        auto validation = context.validationContext();
        validation.teamFolder = std::filesystem::path(file).parent_path();
        auto more = validate(*loaded.team, validation);
        problems.insert(problems.end(), more.begin(), more.end());
    }
    bool invalid = !loaded.team;
    for (const auto& problem : problems) {
        if (problem.isError()) {
            context.err << formatProblem(problem, file) << '\n';
            invalid = true;
        }
    }
    if (invalid)
        return kExitBadInput;

    HttpHub hub;
    BackendProbe probe(hub);
    const auto results = probe.check(*loaded.team);
    size_t width = 7;
    for (const auto& r : results)
        width = std::max(width, r.backend.size());
    bool allOk = true;
    for (const auto& r : results) {
        std::ostringstream latency;
        latency << std::fixed << std::setprecision(0) << r.latencyMs << " ms";
        context.out << std::left << std::setw(int(width) + 2) << r.backend << std::setw(11) << r.kind << std::setw(8)
                    << (r.ok ? "ok" : "FAILED") << std::right << std::setw(9) << latency.str() << "  " << r.detail
                    << '\n';
        allOk = allOk && r.ok;
    }
    return allOk ? kExitOk : kExitFailed;
}

} // namespace conclave::cli
