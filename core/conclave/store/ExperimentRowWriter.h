#pragma once

#include "conclave/store/SqliteDb.h"
#include "conclave/store/WriteOp.h"

namespace conclave {

// The writer thread's statements for experiments and trials, on its connection.
// An experiment's row is inserted once; later saves change its name, status,
// planned trials, end, note, spend and writer, never its spec or start. A trial
// replaces the stored trial of the same (experiment, design, task, seed); one
// without a run id is stored with run_id NULL.
class ExperimentRowWriter {
public:
    explicit ExperimentRowWriter(SqliteDb& db);

    bool valid() const { return m_upsertExperiment.valid() && m_replaceTrial.valid(); }
    // Inside the caller's transaction; false on an SQLite error (see the connection's lastError()).
    bool write(const ExperimentWriteOp& op);

private:
    bool write(const write_op::ExperimentRow& row);
    bool write(const write_op::TrialRow& row);

    SqliteStatement m_upsertExperiment;
    SqliteStatement m_replaceTrial;
};

} // namespace conclave
