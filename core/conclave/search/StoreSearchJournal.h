#pragma once

#include "conclave/search/SearchJournal.h"

#include <mutex>
#include <string>

namespace conclave {

class SearchStore;

// A search's journal in the run store (SearchStore): its candidates and
// trials written as it goes, read back on a resume. A write that fails is
// kept as the first error (error()); the search goes on, and the command
// says what was not stored.
class StoreSearchJournal final : public SearchJournal {
public:
    StoreSearchJournal(SearchStore& store, std::string searchId);

    std::map<std::string, std::vector<KeptTrial>> kept() override;
    void candidates(const std::vector<const SearchCandidate*>& changed) override;
    void trials(const SearchCandidate& candidate, std::string_view part,
                const std::vector<KeptTrial>& trials) override;

    std::string error() const;

private:
    void fail(const std::optional<std::string>& error);

    SearchStore& m_store;
    std::string m_id;
    mutable std::mutex m_mutex;
    std::string m_error;
};

} // namespace conclave
