#include "conclave/store/StoreSchema.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace conclave {

namespace {

// Never edit a migration that has shipped: add the next one.
constexpr std::array<std::string_view, 9> kMigrations{
    // 1: runs, spans, streamed text, node results.
    R"sql(
CREATE TABLE runs (
  id               TEXT PRIMARY KEY,
  team_name        TEXT NOT NULL,
  team_json        TEXT NOT NULL,
  input            TEXT NOT NULL,
  seed             INTEGER NOT NULL,
  status           TEXT NOT NULL,
  started_at_ms    INTEGER NOT NULL,
  ended_at_ms      INTEGER,
  output           TEXT,
  answer           TEXT,
  confidence       REAL,
  output_status    TEXT,
  output_error     TEXT,
  wall_us          INTEGER NOT NULL DEFAULT 0,
  critical_path_us INTEGER NOT NULL DEFAULT 0,
  critical_path    TEXT NOT NULL DEFAULT '[]',
  tokens_in        INTEGER NOT NULL DEFAULT 0,
  tokens_out       INTEGER NOT NULL DEFAULT 0,
  cost_usd         REAL NOT NULL DEFAULT 0,
  calls            INTEGER NOT NULL DEFAULT 0,
  host             TEXT NOT NULL DEFAULT '',
  pid              INTEGER NOT NULL DEFAULT 0,
  pid_start        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX runs_by_time ON runs(started_at_ms);
CREATE INDEX runs_by_team ON runs(team_name, started_at_ms);
CREATE INDEX runs_by_status ON runs(status);
CREATE TABLE spans (
  run_id      TEXT NOT NULL,
  id          INTEGER NOT NULL,
  parent      INTEGER,
  node        TEXT NOT NULL,
  kind        TEXT NOT NULL,
  name        TEXT NOT NULL,
  start_us    INTEGER NOT NULL,
  end_us      INTEGER,
  status      TEXT NOT NULL,
  attempt     INTEGER NOT NULL DEFAULT 0,
  round       INTEGER NOT NULL DEFAULT 0,
  model       TEXT,
  tokens_in   INTEGER NOT NULL DEFAULT 0,
  tokens_out  INTEGER NOT NULL DEFAULT 0,
  cost_usd    REAL NOT NULL DEFAULT 0,
  ttft_us     INTEGER,
  planned_ms  REAL NOT NULL DEFAULT 0,
  error       TEXT,
  PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
CREATE TABLE span_text (
  run_id     TEXT NOT NULL,
  span_id    INTEGER NOT NULL,
  text       TEXT NOT NULL,
  truncated  INTEGER NOT NULL DEFAULT 0,
  UNIQUE (run_id, span_id)
);
CREATE TABLE node_results (
  run_id      TEXT NOT NULL,
  node        TEXT NOT NULL,
  status      TEXT NOT NULL,
  text        TEXT NOT NULL,
  answer      TEXT NOT NULL,
  confidence  REAL NOT NULL DEFAULT 0,
  tokens_in   INTEGER NOT NULL DEFAULT 0,
  tokens_out  INTEGER NOT NULL DEFAULT 0,
  cost_usd    REAL NOT NULL DEFAULT 0,
  error       TEXT,
  queued_us   INTEGER,
  finished_us INTEGER,
  UNIQUE (run_id, node)
);
)sql",
    // 2: which clock a run lived in (real before there was a choice), and the CPU time it used.
    R"sql(
ALTER TABLE runs ADD COLUMN clock TEXT NOT NULL DEFAULT 'real';
ALTER TABLE runs ADD COLUMN cpu_us INTEGER NOT NULL DEFAULT 0;
)sql",
    // 3: experiments and their trials; a trial's run carries its experiment's id
    // (NULL for every other run). An experiment records its writer, as a run does.
    R"sql(
ALTER TABLE runs ADD COLUMN experiment_id TEXT;
CREATE INDEX runs_by_experiment ON runs(experiment_id);
CREATE TABLE experiments (
  id             TEXT PRIMARY KEY,
  name           TEXT NOT NULL,
  status         TEXT NOT NULL,
  spec_json      TEXT NOT NULL,
  designs_json   TEXT NOT NULL DEFAULT '[]',
  taskset        TEXT NOT NULL DEFAULT '',
  planned_trials INTEGER NOT NULL DEFAULT 0,
  started_at_ms  INTEGER NOT NULL,
  ended_at_ms    INTEGER,
  note           TEXT NOT NULL DEFAULT '',
  host           TEXT NOT NULL DEFAULT '',
  pid            INTEGER NOT NULL DEFAULT 0,
  pid_start      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX experiments_by_time ON experiments(started_at_ms);
CREATE TABLE trials (
  experiment_id    TEXT NOT NULL,
  design           INTEGER NOT NULL,
  design_name      TEXT NOT NULL,
  task             TEXT NOT NULL,
  domain           TEXT NOT NULL DEFAULT '',
  seed             INTEGER NOT NULL,
  run_id           TEXT NOT NULL,
  status           TEXT NOT NULL,
  answer           TEXT NOT NULL DEFAULT '',
  expected         TEXT NOT NULL DEFAULT '',
  correct          INTEGER,
  score_detail     TEXT NOT NULL DEFAULT '',
  wall_us          INTEGER NOT NULL DEFAULT 0,
  critical_path_us INTEGER NOT NULL DEFAULT 0,
  cost_usd         REAL NOT NULL DEFAULT 0,
  judge_cost_usd   REAL NOT NULL DEFAULT 0,
  tokens           INTEGER NOT NULL DEFAULT 0,
  calls            INTEGER NOT NULL DEFAULT 0,
  agents_json      TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (experiment_id, design, task, seed)
) WITHOUT ROWID;
)sql",
    // 4: what a node decided (an adaptive round's stop or next speaker, a skipped synthesize), and a
    // synthesize that answered without its model: why, and which inputs agreed (a JSON array).
    R"sql(
ALTER TABLE spans ADD COLUMN note TEXT;
ALTER TABLE node_results ADD COLUMN skipped_model TEXT;
ALTER TABLE node_results ADD COLUMN agreed TEXT;
)sql",
    // 5: a trial may have no run (its figures stored alone: run_id NULL), which SQLite can only
    // allow by copying the table; what an experiment spent (stored ones: what their trials cost);
    // the store's own random id, and what each shard merged into it added to an experiment's spend.
    R"sql(
CREATE TABLE trials_5 (
  experiment_id    TEXT NOT NULL,
  design           INTEGER NOT NULL,
  design_name      TEXT NOT NULL,
  task             TEXT NOT NULL,
  domain           TEXT NOT NULL DEFAULT '',
  seed             INTEGER NOT NULL,
  run_id           TEXT,
  status           TEXT NOT NULL,
  answer           TEXT NOT NULL DEFAULT '',
  expected         TEXT NOT NULL DEFAULT '',
  correct          INTEGER,
  score_detail     TEXT NOT NULL DEFAULT '',
  wall_us          INTEGER NOT NULL DEFAULT 0,
  critical_path_us INTEGER NOT NULL DEFAULT 0,
  cost_usd         REAL NOT NULL DEFAULT 0,
  judge_cost_usd   REAL NOT NULL DEFAULT 0,
  tokens           INTEGER NOT NULL DEFAULT 0,
  calls            INTEGER NOT NULL DEFAULT 0,
  agents_json      TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (experiment_id, design, task, seed)
) WITHOUT ROWID;
INSERT INTO trials_5 SELECT * FROM trials;
DROP TABLE trials;
ALTER TABLE trials_5 RENAME TO trials;
ALTER TABLE experiments ADD COLUMN spent_usd REAL NOT NULL DEFAULT 0;
UPDATE experiments SET spent_usd =
  coalesce((SELECT sum(t.cost_usd + t.judge_cost_usd) FROM trials t WHERE t.experiment_id = experiments.id), 0);
CREATE TABLE store_identity (id TEXT NOT NULL);
INSERT INTO store_identity (id) VALUES (lower(hex(randomblob(16))));
CREATE TABLE merged_shards (
  experiment_id TEXT NOT NULL,
  store_id      TEXT NOT NULL,
  spent_usd     REAL NOT NULL,
  PRIMARY KEY (experiment_id, store_id)
) WITHOUT ROWID;
)sql",
    // 6: what replaying a call attempt needs: the requests in flight on its endpoint when it was
    // admitted, its wait for that admission, and the draw key it was made with (NULL: not known).
    R"sql(
ALTER TABLE spans ADD COLUMN inflight INTEGER;
ALTER TABLE spans ADD COLUMN wait_us INTEGER;
ALTER TABLE spans ADD COLUMN draw TEXT;
)sql",
    // 7: how many of a trial's call attempts were answered from recordings (a recorded backend), and
    // the judge's run, now stored so that its calls can be replayed (NULL: no judge, or not stored).
    R"sql(
ALTER TABLE trials ADD COLUMN replayed_calls INTEGER NOT NULL DEFAULT 0;
ALTER TABLE trials ADD COLUMN judge_run_id TEXT;
)sql",
    // 8: what started a run (RunSource: run, rerun, eval, studio, serve; rows stored before read
    // `run`), the content hash of the team it ran, and the name of the API key that asked for it
    // (served runs; NULL otherwise — never the key itself).
    R"sql(
ALTER TABLE runs ADD COLUMN source TEXT NOT NULL DEFAULT 'run';
ALTER TABLE runs ADD COLUMN team_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN key_name TEXT;
CREATE INDEX runs_by_source ON runs(source, started_at_ms);
)sql",
    // 9: design searches (conclave search): each search with its spec and report, its candidates
    // (their team JSON, where they got to, and why any was dropped) and their trials' figures.
    R"sql(
CREATE TABLE searches (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  status        TEXT NOT NULL,
  spec_json     TEXT NOT NULL,
  command       TEXT NOT NULL DEFAULT '',
  report_json   TEXT NOT NULL DEFAULT '',
  note          TEXT NOT NULL DEFAULT '',
  trials        INTEGER NOT NULL DEFAULT 0,
  seconds       REAL NOT NULL DEFAULT 0,
  started_at_ms INTEGER NOT NULL,
  ended_at_ms   INTEGER,
  host          TEXT NOT NULL DEFAULT '',
  pid           INTEGER NOT NULL DEFAULT 0,
  pid_start     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX searches_by_time ON searches(started_at_ms);
CREATE TABLE search_candidates (
  search_id       TEXT NOT NULL,
  candidate       INTEGER NOT NULL,
  key             TEXT NOT NULL,
  name            TEXT NOT NULL,
  team_json       TEXT NOT NULL,
  parameters_json TEXT NOT NULL DEFAULT '[]',
  generation      INTEGER NOT NULL DEFAULT 0,
  rung            INTEGER NOT NULL DEFAULT -1,
  status          TEXT NOT NULL,
  dropped_by      INTEGER,
  why             TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (search_id, candidate)
) WITHOUT ROWID;
CREATE TABLE search_trials (
  search_id TEXT NOT NULL,
  candidate INTEGER NOT NULL,
  part      TEXT NOT NULL,
  task      TEXT NOT NULL,
  seed      INTEGER NOT NULL,
  scored    INTEGER NOT NULL,
  correct   INTEGER NOT NULL,
  failed    INTEGER NOT NULL,
  wall_us   INTEGER NOT NULL,
  cost_usd  REAL NOT NULL,
  tokens    INTEGER NOT NULL,
  calls     INTEGER NOT NULL,
  PRIMARY KEY (search_id, candidate, task, seed)
) WITHOUT ROWID;
)sql",
};

} // namespace

int StoreSchema::currentVersion()
{
    return int(kMigrations.size());
}

std::optional<std::string> StoreSchema::migrate(SqliteDb& db)
{
    return migrate(db, currentVersion());
}

std::optional<std::string> StoreSchema::migrate(SqliteDb& db, int toVersion)
{
    const auto target = size_t(std::clamp(toVersion, 0, currentVersion()));
    if (auto error = db.exec("BEGIN IMMEDIATE"))
        return error;
    // Read inside the write transaction: another process may have migrated meanwhile.
    const auto version = db.queryInt("PRAGMA user_version");
    if (!version) {
        const auto error = db.lastError();
        db.exec("ROLLBACK");
        return error;
    }
    for (auto v = size_t(*version); v < target; ++v) {
        if (auto error = db.exec(kMigrations[v])) {
            db.exec("ROLLBACK");
            return "migration " + std::to_string(v + 1) + ": " + *error;
        }
    }
    if (size_t(*version) < target) {
        if (auto error = db.exec("PRAGMA user_version = " + std::to_string(target))) {
            db.exec("ROLLBACK");
            return error;
        }
    }
    if (auto error = db.exec("COMMIT")) {
        db.exec("ROLLBACK");
        return error;
    }
    return std::nullopt;
}

} // namespace conclave
