#include "conclave/replay/RecordingLibrary.h"

#include "conclave/replay/ExperimentRecordings.h"
#include "conclave/replay/RunRecordings.h"

#include <nlohmann/json.hpp>

namespace conclave {

namespace {

std::string storeKey(const std::filesystem::path& db)
{
    std::error_code ec;
    const auto path = std::filesystem::weakly_canonical(std::filesystem::absolute(db, ec), ec);
    return ec ? db.string() : path.string();
}

} // namespace

std::shared_ptr<const RecordingSource> RecordingLibrary::experiments(const std::filesystem::path& db,
                                                                     const std::vector<std::string>& experimentIds,
                                                                     const std::vector<std::string>& excludedDesigns,
                                                                     std::string& error)
{
    std::string key = "experiments\x1f" + storeKey(db);
    for (const auto& id : experimentIds)
        key += "\x1f" + id;
    // Design names are free text: as JSON, where a control character is escaped, none can pass for another.
    key += "\x1e" + nlohmann::json(excludedDesigns).dump();
    std::lock_guard lock(m_mutex);
    if (const auto it = m_loaded.find(key); it != m_loaded.end())
        return it->second;
    auto loaded = ExperimentRecordings::load(db, experimentIds, excludedDesigns, error);
    if (loaded)
        m_loaded.emplace(key, loaded);
    return loaded;
}

std::shared_ptr<const RecordingSource> RecordingLibrary::run(const std::filesystem::path& db, const std::string& runId,
                                                             std::string& error)
{
    const std::string key = "run\x1f" + storeKey(db) + "\x1f" + runId;
    std::lock_guard lock(m_mutex);
    if (const auto it = m_loaded.find(key); it != m_loaded.end())
        return it->second;
    auto loaded = RunRecordings::load(db, RunId(runId), error);
    if (loaded)
        m_loaded.emplace(key, loaded);
    return loaded;
}

} // namespace conclave
