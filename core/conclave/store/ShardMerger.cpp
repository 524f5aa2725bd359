#include "conclave/store/ShardMerger.h"

#include "conclave/io/JsonText.h"

#include "conclave/store/ProcessIdentity.h"
#include "conclave/store/ShardSpend.h"
#include "conclave/store/StoreFileCheck.h"

#include <array>
#include <optional>
#include <vector>

namespace conclave {

namespace {

namespace fs = std::filesystem;

// A stored spec as it identifies its experiment: without the paths kept for
// display and reloading (a design's "file" and "path", a task file's name as
// typed and "path"), which differ between shards run from different folders.
// Specs of format 1 hashed their paths into their ids, so theirs stay.
std::string specWithoutPaths(const std::string& specJson)
{
    auto spec = parseJsonQuietly(specJson);
    if (!spec.is_object() || spec.value("format", 0) < 2)
        return specJson;
    const auto strip = [](nlohmann::json& design) {
        if (design.is_object()) {
            design.erase("file");
            design.erase("path");
        }
    };
    if (auto designs = spec.find("designs"); designs != spec.end() && designs->is_array()) {
        for (auto& design : *designs)
            strip(design);
    }
    if (auto scorer = spec.find("scorer"); scorer != spec.end() && scorer->is_object() && scorer->contains("judge"))
        strip((*scorer)["judge"]);
    if (auto taskset = spec.find("taskset"); taskset != spec.end() && taskset->is_object()) {
        taskset->erase("path");
        if (!taskset->value("bundled", false))
            taskset->erase("name");
    }
    return spec.dump();
}

// The first schema with experiments.
constexpr int64_t kExperimentsVersion = 3;

// The columns of `table` in both databases, quoted, in this store's order: a
// shard of an older schema lacks the newer columns, which take their defaults.
std::optional<std::string> commonColumns(SqliteDb& db, std::string_view table)
{
    auto s = db.prepare("SELECT m.name FROM pragma_table_info(?1, 'main') m "
                        "WHERE m.name IN (SELECT name FROM pragma_table_info(?1, 'shard')) ORDER BY m.cid");
    s.bind(1, table);
    std::string columns;
    while (s.step())
        columns += (columns.empty() ? "\"" : ", \"") + s.text(0) + "\"";
    if (!s.error().empty() || columns.empty())
        return std::nullopt;
    return columns;
}

struct ShardExperiment {
    std::string id;
    bool newHere = false;     // not in this store before the merge
    bool runningHere = false; // a live process is running it into this store
};

// The shard's runs that an earlier merge copied here half-written: the copy here
// never finished (running, or interrupted since), and the shard's has finished or
// got further (more spans, or more of them ended).
// `which`: a condition on the shard's run `s`, the runs the merge copies.
std::string halfWritten(std::string_view which)
{
    return "SELECT s.id FROM shard.runs s JOIN main.runs m ON m.id = s.id "
           "WHERE (" + std::string(which) + ") AND m.status IN ('running', 'interrupted') "
           "AND (s.status NOT IN ('running', 'interrupted') "
           "  OR (SELECT count(*) + count(end_us) FROM shard.spans WHERE run_id = s.id) > "
           "     (SELECT count(*) + count(end_us) FROM main.spans WHERE run_id = s.id))";
}

// Deletes the half-written copies here (halfWritten) of the runs `which` picks,
// with their spans, texts and node results, for the copy that follows to take
// their place; how many, or an error.
std::optional<int> dropHalfWritten(SqliteDb& db, std::string_view which, std::string& error)
{
    std::vector<std::string> ids;
    {
        auto s = db.prepare(halfWritten(which));
        while (s.valid() && s.step())
            ids.push_back(s.text(0));
        error = s.valid() ? s.error() : db.lastError();
    }
    if (!error.empty())
        return std::nullopt;
    for (const char* sql : {"DELETE FROM main.spans WHERE run_id = ?1", "DELETE FROM main.span_text WHERE run_id = ?1",
                            "DELETE FROM main.node_results WHERE run_id = ?1", "DELETE FROM main.runs WHERE id = ?1"}) {
        auto s = db.prepare(sql);
        for (const auto& id : ids) {
            s.bind(1, std::string_view(id));
            if (!s.execute()) {
                error = db.lastError();
                return std::nullopt;
            }
        }
    }
    return int(ids.size());
}

// Attaches `shard` read-only as "shard" after the checks a store passes when
// opened; its schema version, or an error (nothing attached).
std::optional<int64_t> attachChecked(SqliteDb& db, const fs::path& store, const fs::path& shard, std::string& error)
{
    const std::string name = shard.string();
    std::error_code ec;
    if (!fs::exists(shard, ec)) {
        error = name + ": no such file";
        return std::nullopt;
    }
    if (fs::equivalent(shard, store, ec)) {
        error = name + ": is the store it would be merged into";
        return std::nullopt;
    }
    if (auto problem = StoreFileCheck::file(shard, StoreFileCheck::Access::Read)) {
        error = *problem;
        return std::nullopt;
    }
    // A shard without a WAL beside it is at rest: read as immutable, SQLite
    // creates no -wal or -shm next to it. One being written is read through its WAL.
    {
        auto attach = db.prepare("ATTACH DATABASE ?1 AS shard");
        const auto uri = SqliteDb::readOnlyUri(shard, StoreFileCheck::atRest(shard));
        attach.bind(1, std::string_view(uri));
        if (!attach.execute()) {
            error = name + ": cannot attach (" + db.lastError() + ")";
            return std::nullopt;
        }
    }
    int64_t version = 0;
    if (auto problem = StoreFileCheck::contents(db, shard, version, "shard"))
        error = *problem;
    else if (version == 0)
        error = name + ": an SQLite database, but not a Conclave run store";
    if (!error.empty()) {
        db.exec("DETACH DATABASE shard");
        return std::nullopt;
    }
    return version;
}

// INSERT OR IGNORE of the rows `where` picks in shard.TABLE, over the columns both have.
std::optional<std::string> copyRows(SqliteDb& db, std::string_view table, const std::string& where)
{
    const auto columns = commonColumns(db, table);
    if (!columns)
        return "no columns of " + std::string(table) + " in common";
    const std::string t(table);
    return db.exec("INSERT OR IGNORE INTO main." + t + " (" + *columns + ") SELECT " + *columns + " FROM shard." +
                   t + where);
}

} // namespace

ShardMerger::Merged ShardMerger::merge(SqliteDb& db, const fs::path& store, const fs::path& shard)
{
    const std::string name = shard.string();
    std::string attachError;
    const auto version = attachChecked(db, store, shard, attachError);
    if (!version)
        return {.error = attachError};
    const auto detached = [&](const std::string& error) {
        db.exec("DETACH DATABASE shard");
        return Merged{.error = error};
    };
    if (*version < kExperimentsVersion)
        return detached(name + ": a run store from before experiments (store schema version " +
                        std::to_string(*version) + "), so it holds none");
    Merged merged;
    const auto fail = [&](const std::string& error) {
        db.exec("ROLLBACK");
        return detached(error);
    };
    const auto cannot = [&](const std::string& what) { return fail(name + ": cannot merge (" + what + ")"); };
    if (auto e = db.exec("BEGIN IMMEDIATE"))
        return fail(store.string() + ": " + *e);

    // Each statement on the shard is finalized (its block left) before a failure detaches it.
    std::string clashing, error;
    {
        auto clash = db.prepare("SELECT s.id, m.spec_json, s.spec_json FROM shard.experiments s "
                                "JOIN main.experiments m ON m.id = s.id ORDER BY s.id");
        if (!clash.valid())
            error = db.lastError();
        while (clash.valid() && clashing.empty() && clash.step()) {
            if (specWithoutPaths(clash.text(1)) != specWithoutPaths(clash.text(2)))
                clashing = clash.text(0);
        }
        if (clash.valid() && error.empty())
            error = clash.error();
    }
    if (!error.empty())
        return cannot(error);
    if (!clashing.empty())
        return fail(name + ": experiment " + clashing + " has a different spec than the one in " + store.string() +
                    "; shards of one experiment must be run with the same designs, task set, seeds and scorer");

    std::vector<ShardExperiment> experiments;
    {
        auto s = db.prepare("SELECT s.id, m.status, m.host, m.pid, m.pid_start FROM shard.experiments s "
                            "LEFT JOIN main.experiments m ON m.id = s.id ORDER BY s.id");
        while (s.valid() && s.step()) {
            const bool running = !s.isNull(1) && s.textView(1) == "running" &&
                                 ProcessIdentity{s.text(2), s.int64(3), s.int64(4)}.alive();
            experiments.push_back({s.text(0), s.isNull(1), running});
        }
        error = s.valid() ? s.error() : db.lastError();
    }
    if (!error.empty())
        return cannot(error);
    merged.experiments = int(experiments.size());
    if (const auto replaced = dropHalfWritten(db, "s.experiment_id IN (SELECT id FROM shard.experiments)", error))
        merged.replacedRuns = *replaced;
    else
        return cannot(error);

    const std::string ofShard = " WHERE experiment_id IN (SELECT id FROM shard.experiments)";
    const std::string runsOfShard =
        " WHERE run_id IN (SELECT id FROM shard.runs WHERE experiment_id IN (SELECT id FROM shard.experiments))";
    struct Copy {
        std::string_view table;
        std::string where;
        int* count;
    };
    const std::array<Copy, 6> copies{{{"experiments", "", nullptr},
                                      {"trials", ofShard, &merged.trials},
                                      {"runs", ofShard, &merged.runs},
                                      {"spans", runsOfShard, nullptr},
                                      {"span_text", runsOfShard, nullptr},
                                      {"node_results", runsOfShard, nullptr}}};
    for (const auto& copy : copies) {
        if (auto e = copyRows(db, copy.table, copy.where))
            return cannot(*e);
        if (copy.count)
            *copy.count = int(db.changes());
    }

    // Its span of time covers both; finished once every planned trial is here.
    {
        auto settle = db.prepare(
            "UPDATE main.experiments SET "
            "started_at_ms = min(started_at_ms, (SELECT started_at_ms FROM shard.experiments WHERE id = ?1)), "
            "ended_at_ms = nullif(max(coalesce(ended_at_ms, -1), "
            "  coalesce((SELECT ended_at_ms FROM shard.experiments WHERE id = ?1), -1)), -1), "
            "status = CASE WHEN (SELECT count(*) FROM main.trials WHERE experiment_id = ?1) >= planned_trials "
            "  THEN 'finished' ELSE 'interrupted' END, "
            "note = CASE WHEN (SELECT count(*) FROM main.trials WHERE experiment_id = ?1) >= planned_trials "
            "  THEN '' ELSE note END "
            "WHERE id = ?1");
        // One a live process runs here is left to it, spend included: a later merge adds the shard's.
        for (const auto& e : experiments) {
            if (e.runningHere)
                continue;
            settle.bind(1, std::string_view(e.id));
            if (!settle.execute()) {
                error = db.lastError();
                break;
            }
            if (auto failed = ShardSpend::add(db, e.id, e.newHere)) {
                error = *failed;
                break;
            }
        }
    }
    if (!error.empty())
        return cannot(error);
    if (auto e = db.exec("COMMIT"))
        return fail(store.string() + ": " + *e);
    db.exec("DETACH DATABASE shard");
    return merged;
}

ShardMerger::MergedRuns ShardMerger::mergeRuns(SqliteDb& db, const fs::path& store, const fs::path& other)
{
    const std::string name = other.string();
    std::string error;
    const auto version = attachChecked(db, store, other, error);
    if (!version)
        return {.error = error};
    // Before experiments (schema 3) every run is no experiment's.
    const bool trials = *version >= kExperimentsVersion;
    const auto fail = [&](const std::string& why) {
        db.exec("ROLLBACK");
        db.exec("DETACH DATABASE shard");
        return MergedRuns{.error = why};
    };
    if (auto e = db.exec("BEGIN IMMEDIATE"))
        return fail(store.string() + ": " + *e);
    MergedRuns merged;
    if (const auto replaced = dropHalfWritten(db, trials ? "s.experiment_id IS NULL" : "1", error))
        merged.replacedRuns = *replaced;
    else
        return fail(name + ": cannot merge (" + error + ")");
    // No experiment's trial: those come with their experiment (experiments merge).
    const std::string notTrials = trials ? " WHERE experiment_id IS NULL" : "";
    const std::string ofThem = " WHERE run_id IN (SELECT id FROM shard.runs" + notTrials + ")";
    if (auto e = copyRows(db, "runs", notTrials))
        return fail(name + ": cannot merge (" + *e + ")");
    merged.runs = int(db.changes());
    for (const char* table : {"spans", "span_text", "node_results"}) {
        if (auto e = copyRows(db, table, ofThem))
            return fail(name + ": cannot merge (" + *e + ")");
    }
    if (auto e = db.exec("COMMIT"))
        return fail(store.string() + ": " + *e);
    db.exec("DETACH DATABASE shard");
    return merged;
}

} // namespace conclave
