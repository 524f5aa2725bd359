#include "Commands.h"

#include "conclave/http/BackendProbe.h"
#include "conclave/http/EndpointLoad.h"
#include "conclave/http/HttpHub.h"
#include "conclave/io/TeamFile.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace conclave::cli {

namespace {

constexpr auto kLoadTimeout = std::chrono::seconds(120);

// N calls at once to each openai backend: how many the server really had in hand.
bool loadEach(const CliContext& context, const Team& team, HttpHub& hub, int load)
{
    bool allOk = true;
    for (const auto& [name, block] : team.backends) {
        if (block.kind != BackendKind::OpenAi)
            continue;
        const auto model = BackendProbe::modelUsedOn(team, name);
        std::string error;
        auto settings = OpenAiSettings::fromBlock(name.str(), block, error);
        if (!model || !settings) {
            context.out << name.str() << "  load " << load << ": not sent ("
                        << (settings ? "no node calls a model on this backend" : error) << ")\n";
            allOk = allOk && settings.has_value();
            continue;
        }
        const auto limit = block.maxConcurrency.value_or(OpenAiSettings::kDefaultMaxConcurrency);
        const auto result = EndpointLoad::run(hub.loop(), std::make_shared<const OpenAiSettings>(std::move(*settings)),
                                              hub.limitsFor(block), *model, load, kLoadTimeout);
        const auto expected = std::min<int64_t>(load, limit);
        std::ostringstream wall;
        wall << std::fixed << std::setprecision(0) << result.wallMs;
        context.out << name.str() << "  load " << load << " calls of " << *model << ": peak in flight "
                    << result.peakInFlight << " (max_concurrency " << limit << "), " << result.calls - result.failed
                    << " answered, " << result.failed << " failed, in " << wall.str() << " ms\n";
        if (result.failed > 0)
            context.out << "  first failure: " << result.firstError << '\n';
        if (result.peakInFlight < expected)
            context.out << "  the client kept fewer than " << expected
                        << " in flight: the connection or the server held requests back\n";
        allOk = allOk && result.failed == 0;
    }
    return allOk;
}

} // namespace

int runBackendsCheck(const CliContext& context, const std::string& file, int load)
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
    if (load > 0 && allOk)
        allOk = loadEach(context, *loaded.team, hub, load);
    return allOk ? kExitOk : kExitFailed;
}

} // namespace conclave::cli
