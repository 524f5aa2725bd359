#include "conclave/replay/ExperimentRecordings.h"

#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

namespace conclave {

namespace {

std::string matchKey(std::string_view model, std::string_view input, std::string_view draw)
{
    std::string key;
    key.reserve(model.size() + input.size() + draw.size() + 2);
    key.append(model).append(1, '\x1f').append(draw).append(1, '\x1f').append(input);
    return key;
}

} // namespace

ExperimentRecordings::ExperimentRecordings(std::vector<std::string> experimentIds, std::vector<StoredAttempt> attempts)
    : m_experimentIds(std::move(experimentIds))
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
    return std::make_shared<const ExperimentRecordings>(experimentIds, std::move(*attempts));
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
    std::string ids;
    for (const auto& id : m_experimentIds)
        ids += (ids.empty() ? "" : ", ") + id;
    return (m_experimentIds.size() == 1 ? "experiment " : "experiments ") + ids;
}

} // namespace conclave
