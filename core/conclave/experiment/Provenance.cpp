#include "conclave/experiment/Provenance.h"

#include "conclave/engine/RunPlan.h"

#include <algorithm>
#include <cmath>

namespace conclave {

CallSources& CallSources::operator+=(const CallSources& other)
{
    measured += other.measured;
    replayed += other.replayed;
    simulated += other.simulated;
    return *this;
}

std::string Provenance::text() const
{
    switch (kind) {
    case Kind::Measured:
        return "measured";
    case Kind::Replayed:
        return "replayed (" + std::to_string(replayedPercent) + " % of calls)";
    case Kind::Simulated:
        return "simulated";
    }
    return "measured";
}

Provenance provenance(const CallSources& sources)
{
    if (sources.simulated > 0)
        return {Provenance::Kind::Simulated, 0};
    if (sources.replayed > 0) {
        const double share = double(sources.replayed) / double(sources.replayed + sources.measured);
        return {Provenance::Kind::Replayed, int(std::lround(100 * share))};
    }
    return {Provenance::Kind::Measured, 0};
}

CallSources callSources(const Team& team)
{
    CallSources sources;
    std::string error;
    const auto plan = RunPlan::make(team, error);
    if (!plan)
        return sources;
    for (const auto& pn : plan->nodes()) {
        if (!pn.call || !pn.node->callsModel())
            continue;
        const auto backend = team.backends.find(pn.call->backend);
        if (backend == team.backends.end())
            continue;
        switch (backend->second.kind) {
        case BackendKind::LocalMoe:
            ++sources.simulated;
            break;
        case BackendKind::OpenAi:
            ++sources.measured;
            break;
        case BackendKind::Recorded:
            ++sources.replayed;
            break;
        }
    }
    return sources;
}

CallSources callSources(const Team& team, const std::vector<const TrialRecord*>& trials)
{
    const auto configured = callSources(team);
    if (configured.replayed == 0 || trials.empty())
        return configured;
    bool simulates = configured.simulated > 0;
    for (const auto& [name, block] : team.backends)
        simulates =
            simulates || (block.kind == BackendKind::Recorded && block.onMissing.value_or("fail") == "simulate");
    CallSources counted;
    for (const auto* trial : trials) {
        counted.replayed += trial->replayedCalls;
        const int64_t rest = std::max(0, trial->calls - trial->replayedCalls);
        if (simulates)
            counted.simulated += rest;
        else if (configured.measured > 0)
            counted.measured += rest;
    }
    if (counted.replayed + counted.simulated + counted.measured == 0)
        return configured;
    return counted;
}

Provenance provenance(const ExperimentDesign& design)
{
    return provenance(callSources(design.team));
}

} // namespace conclave
