#include "conclave/search/StoreSearchJournal.h"

#include "conclave/store/SearchStore.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace conclave {

StoreSearchJournal::StoreSearchJournal(SearchStore& store, std::string searchId)
    : m_store(store), m_id(std::move(searchId))
{
}

void StoreSearchJournal::fail(const std::optional<std::string>& error)
{
    std::lock_guard lock(m_mutex);
    if (error && m_error.empty())
        m_error = *error;
}

std::string StoreSearchJournal::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

std::map<std::string, std::vector<SearchJournal::KeptTrial>> StoreSearchJournal::kept()
{
    std::map<std::string, std::vector<KeptTrial>> out;
    std::string error;
    const auto candidates = m_store.candidates(m_id, error);
    const auto trials = candidates ? m_store.trials(m_id, error) : std::nullopt;
    if (!candidates || !trials) {
        fail(error);
        return out;
    }
    std::map<int, std::string> keys;
    for (const auto& c : *candidates)
        keys[c.candidate] = c.key;
    for (const auto& t : *trials) {
        const auto key = keys.find(t.candidate);
        if (key == keys.end())
            continue;
        KeptTrial k;
        k.task = t.task;
        k.seed = t.seed;
        k.cell.ran = true;
        k.cell.scored = t.scored;
        k.cell.right = t.correct;
        k.cell.failed = t.failed;
        k.cell.wallMs = double(t.wallUs) / 1000.0;
        k.cell.costUsd = t.costUsd;
        k.cell.tokens = double(t.tokens);
        k.cell.calls = double(t.calls);
        out[key->second].push_back(std::move(k));
    }
    return out;
}

void StoreSearchJournal::candidates(const std::vector<const SearchCandidate*>& changed)
{
    std::vector<SearchCandidateRow> rows;
    for (const auto* c : changed) {
        SearchCandidateRow r;
        r.candidate = c->id;
        r.key = c->key;
        r.name = c->name;
        r.teamJson = c->teamJson;
        auto parameters = nlohmann::ordered_json::object();
        for (const auto& p : c->parameters)
            parameters[p.path] = p.value;
        r.parametersJson = parameters.dump();
        r.generation = c->generation;
        r.rung = c->rung;
        r.status = std::string(toString(c->status));
        r.droppedBy = c->status == CandidateStatus::Dropped ? c->droppedBy : 0;
        r.why = c->why;
        rows.push_back(std::move(r));
    }
    fail(m_store.saveCandidates(m_id, rows));
}

void StoreSearchJournal::trials(const SearchCandidate& candidate, std::string_view part,
                                const std::vector<KeptTrial>& trials)
{
    std::vector<SearchTrialRow> rows;
    for (const auto& t : trials) {
        SearchTrialRow r;
        r.candidate = candidate.id;
        r.part = std::string(part);
        r.task = t.task;
        r.seed = t.seed;
        r.scored = t.cell.scored;
        r.correct = t.cell.right;
        r.failed = t.cell.failed;
        r.wallUs = int64_t(std::llround(t.cell.wallMs * 1000));
        r.costUsd = t.cell.costUsd;
        r.tokens = int64_t(t.cell.tokens);
        r.calls = int64_t(t.cell.calls);
        rows.push_back(std::move(r));
    }
    fail(m_store.addTrials(m_id, rows));
}

} // namespace conclave
