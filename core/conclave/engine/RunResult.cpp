#include "conclave/engine/RunResult.h"

#include <array>
#include <utility>

namespace conclave {

namespace {

constexpr std::array<std::pair<RunStatus, std::string_view>, 7> kRunStatuses{
    {{RunStatus::Running, "running"},
     {RunStatus::Ok, "ok"},
     {RunStatus::Partial, "partial"},
     {RunStatus::Failed, "failed"},
     {RunStatus::Cancelled, "cancelled"},
     {RunStatus::BudgetExhausted, "budget_exhausted"},
     {RunStatus::Interrupted, "interrupted"}}};

} // namespace

std::string_view toString(RunStatus status)
{
    for (const auto& [s, name] : kRunStatuses) {
        if (s == status)
            return name;
    }
    return "?";
}

std::optional<RunStatus> runStatusFromString(std::string_view text)
{
    for (const auto& [s, name] : kRunStatuses) {
        if (name == text)
            return s;
    }
    return std::nullopt;
}

} // namespace conclave
