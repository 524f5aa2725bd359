#include "conclave/store/ShardSpend.h"

#include <algorithm>

namespace conclave {

namespace {

// Schema 5 made both the store's id and experiments.spent_usd.
bool shardHasIdentity(SqliteDb& db)
{
    return db.queryInt("SELECT count(*) FROM shard.sqlite_master WHERE name = 'store_identity'").value_or(0) > 0;
}

} // namespace

std::optional<std::string> ShardSpend::add(SqliteDb& db, const std::string& id, bool newHere)
{
    const bool hasIdentity = shardHasIdentity(db);
    std::string shardStore;
    double spent = 0;
    {
        auto s = db.prepare(
            hasIdentity
                ? "SELECT (SELECT id FROM shard.store_identity LIMIT 1), spent_usd FROM shard.experiments "
                  "WHERE id = ?1"
                : "SELECT 'writer ' || host || ' ' || pid || ' ' || pid_start, "
                  "coalesce((SELECT sum(cost_usd + judge_cost_usd) FROM shard.trials WHERE experiment_id = ?1), "
                  "0) FROM shard.experiments WHERE id = ?1");
        s.bind(1, std::string_view(id));
        if (!s.valid())
            return db.lastError();
        if (!s.step())
            return s.error().empty() ? "experiment " + id + " is not in the shard" : s.error();
        shardStore = s.text(0);
        spent = s.real(1);
    }
    std::string ownStore;
    {
        auto s = db.prepare("SELECT id FROM main.store_identity LIMIT 1");
        if (s.valid() && s.step())
            ownStore = s.text(0);
    }
    if (shardStore == ownStore)
        return std::nullopt;

    double before = 0;
    {
        auto s = db.prepare("SELECT spent_usd FROM main.merged_shards WHERE experiment_id = ?1 AND store_id = ?2");
        s.bind(1, std::string_view(id)).bind(2, std::string_view(shardStore));
        if (s.step())
            before = s.real(0);
        else if (!s.error().empty())
            return s.error();
    }
    const double counted = std::max(before, spent);
    // A row new here came with the shard's spend (or none, from an older shard): it is that shard's alone.
    auto update = db.prepare(newHere ? "UPDATE main.experiments SET spent_usd = ?2 WHERE id = ?1"
                                     : "UPDATE main.experiments SET spent_usd = spent_usd + ?2 WHERE id = ?1");
    update.bind(1, std::string_view(id)).bind(2, newHere ? counted : counted - before);
    if (!update.execute())
        return db.lastError();
    auto remember = db.prepare("INSERT OR REPLACE INTO main.merged_shards (experiment_id, store_id, spent_usd) "
                               "VALUES (?1, ?2, ?3)");
    remember.bind(1, std::string_view(id)).bind(2, std::string_view(shardStore)).bind(3, counted);
    if (!remember.execute())
        return db.lastError();
    return std::nullopt;
}

} // namespace conclave
