#include "conclave/search/SearchCandidate.h"

#include <algorithm>

namespace conclave {

std::string_view toString(CandidateStatus status)
{
    switch (status) {
    case CandidateStatus::Alive:
        return "alive";
    case CandidateStatus::Dropped:
        return "dropped";
    case CandidateStatus::Front:
        return "front";
    }
    return "alive";
}

bool candidateStatusFrom(std::string_view text, CandidateStatus& status)
{
    for (const auto s : {CandidateStatus::Alive, CandidateStatus::Dropped, CandidateStatus::Front}) {
        if (toString(s) == text) {
            status = s;
            return true;
        }
    }
    return false;
}

bool SearchCandidate::asDrawn() const
{
    return std::all_of(point.choice.begin(), point.choice.end(),
                       [](int c) { return c == SearchSpace::kBaseValue; });
}

} // namespace conclave
