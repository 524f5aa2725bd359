#include "conclave/engine/Span.h"

#include <array>
#include <utility>

namespace conclave {

namespace {

constexpr std::array<std::pair<Status, std::string_view>, 8> kStatuses{{{Status::Queued, "queued"},
                                                                          {Status::Running, "running"},
                                                                          {Status::Ok, "ok"},
                                                                          {Status::Failed, "failed"},
                                                                          {Status::Skipped, "skipped"},
                                                                          {Status::Cancelled, "cancelled"},
                                                                          {Status::Timeout, "timeout"},
                                                                          {Status::BudgetExhausted,
                                                                           "budget_exhausted"}}};

constexpr std::array<std::pair<SpanKind, std::string_view>, 3> kSpanKinds{
    {{SpanKind::Node, "node"}, {SpanKind::Attempt, "attempt"}, {SpanKind::Round, "round"}}};

} // namespace

std::string_view toString(Status status)
{
    for (const auto& [s, name] : kStatuses) {
        if (s == status)
            return name;
    }
    return "?";
}

std::optional<Status> statusFromString(std::string_view text)
{
    for (const auto& [s, name] : kStatuses) {
        if (name == text)
            return s;
    }
    return std::nullopt;
}

bool isFinal(Status status) { return status != Status::Queued && status != Status::Running; }

std::string_view toString(SpanKind kind)
{
    for (const auto& [k, name] : kSpanKinds) {
        if (k == kind)
            return name;
    }
    return "?";
}

std::optional<SpanKind> spanKindFromString(std::string_view text)
{
    for (const auto& [k, name] : kSpanKinds) {
        if (name == text)
            return k;
    }
    return std::nullopt;
}

} // namespace conclave
