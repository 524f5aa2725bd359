#include "conclave/experiment/StoredTrials.h"

#include "conclave/store/RunStore.h"

namespace conclave {

StoredTrials::StoredTrials(RunStore& store, Keep keep)
    : m_store(store), m_keep(keep), m_lostBefore(store.lostTrials())
{
}

std::optional<ExperimentRecord> StoredTrials::experiment(const std::string& id, std::string& error)
{
    auto reader = m_store.reader(error);
    if (!reader)
        return std::nullopt;
    auto all = reader->experiments(error);
    if (!all)
        return std::nullopt;
    for (auto& record : *all) {
        if (record.id == id)
            return std::move(record);
    }
    return std::nullopt;
}

std::optional<std::vector<TrialRecord>> StoredTrials::trials(const std::string& id, std::string& error)
{
    auto reader = m_store.reader(error);
    if (!reader)
        return std::nullopt;
    return reader->trials(id, error);
}

std::optional<std::string> StoredTrials::saveExperiment(const ExperimentRecord& record)
{
    return m_store.saveExperiment(record);
}

std::unique_ptr<RunRecorder> StoredTrials::recorder(const Team& team, const std::string& experimentId,
                                                    std::string& error)
{
    return m_keep == Keep::Runs ? m_store.record(team, error, experimentId) : nullptr;
}

void StoredTrials::add(const TrialRecord& trial)
{
    m_store.addTrial(trial);
}

TrialSink::Committed StoredTrials::commit()
{
    Committed out;
    if (auto failed = m_store.flushTrials())
        out.error = *failed;
    out.lost = m_store.lostTrials() - m_lostBefore;
    return out;
}

std::optional<std::string> StoredTrials::finish(const std::string& id)
{
    if (auto removed = m_store.removeUntriedRuns(id); !removed.error.empty())
        return removed.error;
    return std::nullopt;
}

} // namespace conclave
