#pragma once

#include "conclave/store/SqliteDb.h"

#include <string>
#include <string_view>

namespace conclave {

// A run or an experiment left `running` by a process that is gone is
// `interrupted`, whether or not a writer has opened the store since and written
// so: readers compute it, with the same rule as the recovery on open
// (ProcessIdentity::alive()), and never write it. The rule reaches SQL as the
// function conclave_writer_alive(host, pid, pid_start), defined per connection.
class LiveStatus {
public:
    // The note an experiment without one gets when its writer is gone.
    static constexpr std::string_view kInterruptedNote = "the process running it ended before it finished";

    // Defines conclave_writer_alive() on `db`; false (see db.lastError()) when SQLite refuses.
    static bool define(SqliteDb& db);
    // SQL, true for a row of `table` (a name or an alias with status, host, pid and pid_start)
    // left running by a process that is gone.
    static std::string writerGone(std::string_view table);
    // SQL for the row's status as it is now: 'interrupted' when writerGone, else the stored one.
    static std::string status(std::string_view table);
    // SQL for an experiment's note as it is now: kInterruptedNote when writerGone and it has none.
    static std::string experimentNote(std::string_view table);
};

} // namespace conclave
