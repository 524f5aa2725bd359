#include "conclave/analysis/StatusSeverity.h"

#include <algorithm>
#include <array>

namespace conclave {

namespace {

// Least severe first: a status's rank is its place here.
constexpr std::array kBySeverity{Status::Queued,    Status::Skipped,         Status::Ok,      Status::Running,
                                 Status::Cancelled, Status::BudgetExhausted, Status::Timeout, Status::Failed};

} // namespace

int StatusSeverity::of(Status status)
{
    const auto it = std::find(kBySeverity.begin(), kBySeverity.end(), status);
    return it == kBySeverity.end() ? 0 : int(it - kBySeverity.begin());
}

Status StatusSeverity::worse(Status a, Status b)
{
    return of(b) > of(a) ? b : a;
}

} // namespace conclave
