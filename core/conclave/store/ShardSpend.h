#pragma once

#include "conclave/store/SqliteDb.h"

#include <optional>
#include <string>

namespace conclave {

// What an experiment spent (experiments.spent_usd) when shards are merged into
// a store: its own spend plus, once per shard, what that shard had spent.
//
// A shard is known by its store's random id (store_identity, made when the
// file was created or upgraded to schema 5); merged_shards remembers what each
// shard added. Merging a shard again adds only what it spent since (a resumed
// shard), never the same money twice, and never less than before (an older
// copy of a shard merged after a newer one). A shard carrying this store's own
// id adds nothing: its spend is this store's. A shard from before schema 5
// spent what its trials cost, and is known by its experiment's last writer.
// A shard that itself merged shards counts as one: merge each shard once, into
// one store, rather than some of them through another.
class ShardSpend {
public:
    // Inside the merge's transaction, with the shard attached as `shard` and its
    // rows already copied: adds experiment `id`'s spend in the shard to its row
    // here. `newHere`: the row was copied from the shard by this merge.
    // SQLite's message on failure.
    static std::optional<std::string> add(SqliteDb& db, const std::string& id, bool newHere);
};

} // namespace conclave
