#include "conclave/replay/ExperimentRecordings.h"

#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

#include <algorithm>

namespace conclave {

namespace {

std::string matchKey(std::string_view model, std::string_view input, std::string_view draw)
{
    std::string key;
    key.reserve(model.size() + input.size() + draw.size() + 2);
    key.append(model).append(1, '\x1f').append(draw).append(1, '\x1f').append(input);
    return key;
}

// "e-1, e-2"; each between `quote`s when given ("\"vote\", \"cascade\"").
std::string joined(const std::vector<std::string>& items, std::string_view quote = "")
{
    std::string out;
    for (const auto& item : items)
        out.append(out.empty() ? "" : ", ").append(quote).append(item).append(quote);
    return out;
}

// Drops the attempts of the trials of the designs named `excluded`; false,
// with `error` set, when a name is that of no design of `experimentIds`.
bool leaveOut(RunQueries& reader, const std::vector<std::string>& experimentIds,
              const std::vector<std::string>& excluded, std::vector<StoredAttempt>& attempts, std::string& error)
{
    auto experiments = reader.experiments(error);
    if (!experiments)
        return false;
    std::map<std::string, std::vector<std::string>> designsOf; // experiment id -> its design names, in spec order
    for (auto& e : *experiments) {
        if (std::find(experimentIds.begin(), experimentIds.end(), e.id) != experimentIds.end())
            designsOf.emplace(e.id, std::move(e.designs));
    }
    for (const auto& name : excluded) {
        const bool known = std::any_of(designsOf.begin(), designsOf.end(), [&](const auto& e) {
            return std::find(e.second.begin(), e.second.end(), name) != e.second.end();
        });
        if (!known) {
            error = "no design \"" + name + "\" in experiments " + joined(experimentIds);
            return false;
        }
    }
    std::erase_if(attempts, [&](const StoredAttempt& a) {
        const auto designs = designsOf.find(a.experimentId);
        if (designs == designsOf.end() || a.design < 0 || size_t(a.design) >= designs->second.size())
            return false;
        const auto& name = designs->second[size_t(a.design)];
        return std::find(excluded.begin(), excluded.end(), name) != excluded.end();
    });
    return true;
}

} // namespace

ExperimentRecordings::ExperimentRecordings(std::vector<std::string> experimentIds, std::vector<StoredAttempt> attempts,
                                           std::vector<std::string> excludedDesigns)
    : m_experimentIds(std::move(experimentIds)), m_excludedDesigns(std::move(excludedDesigns))
{
    // The attempts come grouped by run and in span order, so one run's
    // attempts of a call are consecutive in its group, first attempt first.
    std::map<std::pair<std::string, std::string>, size_t> where; // (key, run) -> index in m_calls[key]
    for (auto& a : attempts) {
        if (a.span.draw.empty())
            continue;
        auto key = matchKey(a.span.model, a.input, a.span.draw);
        auto& calls = m_calls[key];
        const auto [it, added] = where.try_emplace({key, a.runId.str()}, calls.size());
        if (added)
            calls.emplace_back();
        calls[it->second].attempts.push_back(std::move(a));
        ++m_attempts;
    }
}

std::shared_ptr<const ExperimentRecordings> ExperimentRecordings::load(const std::filesystem::path& db,
                                                                       const std::vector<std::string>& experimentIds,
                                                                       const std::vector<std::string>& excludedDesigns,
                                                                       std::string& error)
{
    auto opened = RunStore::openForReading(db);
    if (!opened.store) {
        error = opened.error;
        return nullptr;
    }
    auto reader = opened.store->reader(error);
    if (!reader)
        return nullptr;
    auto attempts = reader->experimentAttempts(experimentIds, error);
    if (!attempts) {
        error = db.string() + ": " + error;
        return nullptr;
    }
    if (!excludedDesigns.empty() && !leaveOut(*reader, experimentIds, excludedDesigns, *attempts, error))
        return nullptr;
    return std::make_shared<const ExperimentRecordings>(experimentIds, std::move(*attempts), excludedDesigns);
}

std::vector<const RecordedCall*> ExperimentRecordings::find(const ModelRequest& request) const
{
    std::vector<const RecordedCall*> out;
    const auto it = m_calls.find(matchKey(request.model, request.runInput, request.drawKey()));
    if (it == m_calls.end())
        return out;
    for (const auto& call : it->second)
        out.push_back(&call);
    return out;
}

std::string ExperimentRecordings::describe() const
{
    auto text = (m_experimentIds.size() == 1 ? "experiment " : "experiments ") + joined(m_experimentIds);
    if (!m_excludedDesigns.empty())
        text += (m_excludedDesigns.size() == 1 ? " without design " : " without designs ") +
                joined(m_excludedDesigns, "\"");
    return text;
}

} // namespace conclave
