#pragma once

#include "conclave/store/SqliteDb.h"

#include <filesystem>
#include <string>

namespace conclave {

// Merges a shard — another store file holding trials of the same experiments,
// run elsewhere — into a store, on that store's connection.
//
// Promises: the shard passes the checks a store passes when opened (only read
// access is asked) and is attached read-only, so it is never modified. The
// merge is one transaction: everything is copied or nothing. Rows already here
// (an experiment, a trial, a run and its spans, texts and node results) are
// kept, so merging the same shard twice adds nothing — except a run an earlier
// merge copied half-written (its copy here `running` or `interrupted`, the
// shard's finished since or further on), which the shard's copy replaces with
// its spans, texts and node results. Trials without a run (run_id NULL) are
// copied like any other. What each experiment spent is counted once per shard
// (ShardSpend). An experiment stored here
// under the same id with another spec refuses the whole merge. A merged
// experiment is `finished` when every planned trial is now here, else
// `interrupted` — except one here that a live process is running, left as it is.
class ShardMerger {
public:
    struct Merged {
        int experiments = 0;  // in the shard
        int trials = 0;       // copied: not here before
        int runs = 0;         // copied: not here before, or replacing a half-written copy
        int replacedRuns = 0; // of those, half-written copies replaced
        std::string error;    // nothing was merged
    };

    // `db` is the store's connection (outside a transaction), `store` its file.
    static Merged merge(SqliteDb& db, const std::filesystem::path& store, const std::filesystem::path& shard);

    struct MergedRuns {
        int runs = 0;         // copied: not here before, or replacing a half-written copy
        int replacedRuns = 0; // of those, half-written copies replaced
        std::string error;    // nothing was merged
    };
    // `conclave runs merge`: the runs of another store that are no experiment's
    // trial (another replica's served runs, another machine's), with their spans,
    // texts and node results, under the same promises: read-only, all or
    // nothing, runs here kept, half-written copies replaced. A store of any
    // schema version: columns it lacks take their defaults here.
    static MergedRuns mergeRuns(SqliteDb& db, const std::filesystem::path& store, const std::filesystem::path& other);
};

} // namespace conclave
