#pragma once

#include "conclave/search/CandidateTrials.h"
#include "conclave/search/SearchCandidate.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// Where a design search keeps what it did as it goes (the run store's
// searches tables: SearchStore), so that a search killed at any point
// resumes: the same search run again proposes the same candidates, and
// every trial kept is read back instead of run.
class SearchJournal {
public:
    struct KeptTrial {
        std::string task; // id
        uint64_t seed = 0;
        TrialCell cell;
    };

    virtual ~SearchJournal() = default;
    // The trials kept by an earlier run of this search, by candidate key.
    virtual std::map<std::string, std::vector<KeptTrial>> kept() = 0;
    // Candidates new or changed since the last call.
    virtual void candidates(const std::vector<const SearchCandidate*>& changed) = 0;
    // New trials of one candidate on a part ("search", "validation", "test").
    virtual void trials(const SearchCandidate& candidate, std::string_view part,
                        const std::vector<KeptTrial>& trials) = 0;
};

} // namespace conclave
