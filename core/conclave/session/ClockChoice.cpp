#include "conclave/session/ClockChoice.h"

namespace conclave {

std::optional<ClockRequest> clockRequestFromString(std::string_view text)
{
    if (text == "auto")
        return ClockRequest::Auto;
    if (const auto kind = clockKindFromString(text))
        return *kind == ClockKind::Virtual ? ClockRequest::Virtual : ClockRequest::Real;
    return std::nullopt;
}

std::string_view toString(ClockRequest request)
{
    switch (request) {
    case ClockRequest::Auto:
        return "auto";
    case ClockRequest::Real:
        return "real";
    case ClockRequest::Virtual:
        return "virtual";
    }
    return "auto";
}

ClockChoice chooseClock(const RunPlan& plan, ClockRequest request, bool allReplayed)
{
    if (request == ClockRequest::Real)
        return {ClockKind::Real, {}};
    if (allReplayed)
        return {ClockKind::Virtual, {}};
    const auto& backends = plan.team().backends;
    for (const auto& pn : plan.nodes()) {
        if (!pn.call)
            continue;
        const auto it = backends.find(pn.call->backend);
        if (it == backends.end() || it->second.kind != BackendKind::OpenAi)
            continue;
        if (request == ClockRequest::Auto)
            return {ClockKind::Real, {}};
        return {ClockKind::Real, "the virtual clock needs every backend to be local-moe or recorded: node \"" +
                                     pn.node->id.str() + "\" calls backend \"" + it->first.str() +
                                     "\", an openai endpoint, so the team runs on the real clock only"};
    }
    return {ClockKind::Virtual, {}};
}

} // namespace conclave
