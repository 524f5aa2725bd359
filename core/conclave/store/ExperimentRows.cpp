// RunStore's experiments: queueing their rows and their trials for the writer,
// deleting one with its runs, merging shards, and marking those of a dead
// process interrupted.
#include "conclave/store/LiveStatus.h"
#include "conclave/store/ProcessIdentity.h"
#include "conclave/store/RunStore.h"

namespace conclave {

std::optional<std::string> RunStore::saveExperiment(const ExperimentRecord& experiment)
{
    if (experiment.id.empty())
        return m_path.string() + ": an experiment needs an id";
    std::string error;
    auto writer = startWriter(error);
    if (!writer)
        return error;
    const auto self = ProcessIdentity::current();
    writer->pushExperiment(write_op::ExperimentRow{experiment, self.host, self.pid, self.startTime});
    return std::nullopt;
}

void RunStore::addTrial(const TrialRecord& trial)
{
    std::string error;
    if (auto writer = startWriter(error)) {
        writer->pushExperiment(write_op::TrialRow{trial});
        return;
    }
    std::lock_guard lock(m_writerMutex);
    ++m_unqueuedTrials;
}

std::optional<std::string> RunStore::flushTrials()
{
    std::string error;
    auto writer = startWriter(error);
    if (!writer)
        return error;
    writer->flush();
    if (auto failed = writer->error(); !failed.empty())
        return m_path.string() + ": " + failed;
    return std::nullopt;
}

int64_t RunStore::lostTrials() const
{
    std::lock_guard lock(m_writerMutex);
    return m_unqueuedTrials + (m_writer ? m_writer->lostTrials() : 0);
}

int RunStore::recoverExperiments()
{
    const auto dead = runningWithDeadWriter("experiments");
    if (dead.empty() || m_db.exec("BEGIN IMMEDIATE"))
        return 0;
    // It ended when its last trial's run did, as far as anyone can tell.
    auto update = m_db.prepare("UPDATE experiments SET status = 'interrupted', "
                               "ended_at_ms = coalesce((SELECT max(coalesce(ended_at_ms, started_at_ms)) FROM runs "
                               "  WHERE experiment_id = ?1), started_at_ms), "
                               "note = CASE WHEN note = '' THEN ?2 ELSE note END "
                               "WHERE id = ?1 AND status = 'running'");
    int count = 0;
    for (const auto& id : dead) {
        update.bind(1, std::string_view(id)).bind(2, LiveStatus::kInterruptedNote);
        if (!update.execute()) {
            m_db.exec("ROLLBACK");
            return 0;
        }
        count += int(m_db.changes());
    }
    if (m_db.exec("COMMIT")) {
        m_db.exec("ROLLBACK");
        return 0;
    }
    return count;
}

RunStore::Deleted RunStore::removeExperiment(const std::string& id)
{
    if (auto refused = refuseWrite())
        return {0, *refused};
    // Trials still queued for it would otherwise be written after it is gone.
    flush();
    const auto sqlError = [&](const std::string& error) {
        m_db.exec("ROLLBACK");
        return Deleted{0, m_path.string() + ": " + error};
    };
    if (auto e = m_db.exec("BEGIN IMMEDIATE"))
        return {0, m_path.string() + ": " + *e};
    {
        auto owner = m_db.prepare("SELECT status, host, pid, pid_start FROM experiments WHERE id = ?1");
        owner.bind(1, std::string_view(id));
        const bool found = owner.step();
        if (!owner.error().empty())
            return sqlError(owner.error());
        auto runs = m_db.prepare("SELECT count(*) FROM runs WHERE experiment_id = ?1");
        runs.bind(1, std::string_view(id));
        if (!found && (!runs.step() || runs.int64(0) == 0)) {
            m_db.exec("ROLLBACK");
            return {0, "no experiment \"" + id + "\""};
        }
        if (found && owner.textView(0) == "running" &&
            ProcessIdentity{owner.text(1), owner.int64(2), owner.int64(3)}.alive()) {
            m_db.exec("ROLLBACK");
            return {0, "experiment " + id + " is still running (process " + std::to_string(owner.int64(2)) + " on " +
                           owner.text(1) + "); stop it before deleting it"};
        }
    }
    int count = 0;
    const std::string ofRuns = " WHERE run_id IN (SELECT id FROM runs WHERE experiment_id = ?1)";
    for (const std::string& sql :
         {"DELETE FROM spans" + ofRuns, "DELETE FROM span_text" + ofRuns, "DELETE FROM node_results" + ofRuns,
          std::string("DELETE FROM runs WHERE experiment_id = ?1"),
          std::string("DELETE FROM trials WHERE experiment_id = ?1"),
          std::string("DELETE FROM merged_shards WHERE experiment_id = ?1"),
          std::string("DELETE FROM experiments WHERE id = ?1")}) {
        auto s = m_db.prepare(sql);
        s.bind(1, std::string_view(id));
        if (!s.execute())
            return sqlError(m_db.lastError());
        if (sql.starts_with("DELETE FROM runs"))
            count = int(m_db.changes());
    }
    if (auto e = m_db.exec("COMMIT"))
        return sqlError(*e);
    return {count, {}};
}

RunStore::Merged RunStore::mergeFrom(const std::filesystem::path& other)
{
    if (auto refused = refuseWrite())
        return {.error = *refused};
    // What this process has queued goes in first, so the merge sees it.
    flush();
    auto merged = ShardMerger::merge(m_db, m_path, other);
    // Runs copied while their writer was already gone read as interrupted now, as on an open.
    if (merged.error.empty())
        recoverInterrupted();
    return merged;
}

ShardMerger::MergedRuns RunStore::mergeRunsFrom(const std::filesystem::path& other)
{
    if (auto refused = refuseWrite())
        return {.error = *refused};
    flush();
    auto merged = ShardMerger::mergeRuns(m_db, m_path, other);
    if (merged.error.empty())
        recoverInterrupted();
    return merged;
}

} // namespace conclave
