// RunRecorder with RunOrigin::storeText false (`conclave serve --store-text
// none`): one seeded run on the virtual clock stored twice, with and without
// its text; the figures agree column by column, and the second keeps no
// text in any column of runs, spans, node_results or span_text.
#include <QTemporaryDir>
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "conclave/io/TeamJson.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"

#include <fstream>

using namespace conclave;

namespace {

std::string readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A query of one run's rows (the run's id: ?1) and how many columns it selects.
struct Query {
    const char* sql;
    int columns;
};

// Every row a query gives for one run, each row's columns joined by '|'.
std::vector<std::string> rows(SqliteDb& db, const Query& query, const std::string& runId)
{
    std::vector<std::string> out;
    auto s = db.prepare(query.sql);
    s.bind(1, std::string_view(runId));
    while (s.step()) {
        std::string row;
        for (int c = 0; c < query.columns; ++c)
            row += (c ? "|" : "") + (s.isNull(c) ? std::string("NULL") : s.text(c));
        out.push_back(std::move(row));
    }
    return out;
}

// The figures of a run: every column but its texts, its wall-clock times, its CPU time and its writer.
const Query kRunFigures{
    "SELECT team_name, team_json, seed, status, confidence, output_status, output_error, wall_us, "
    "critical_path_us, critical_path, tokens_in, tokens_out, cost_usd, calls, clock, experiment_id, source, "
    "team_hash, key_name FROM runs WHERE id = ?1",
    19};
const Query kSpanFigures{
    "SELECT id, parent, node, kind, name, start_us, end_us, status, attempt, round, model, tokens_in, tokens_out, "
    "cost_usd, ttft_us, planned_ms, error, inflight, wait_us, draw FROM spans WHERE run_id = ?1 ORDER BY id",
    20};
const Query kNodeFigures{
    "SELECT node, status, confidence, tokens_in, tokens_out, cost_usd, error, queued_us, finished_us, "
    "skipped_model, agreed FROM node_results WHERE run_id = ?1 ORDER BY node",
    11};
// The text columns: what a run was asked and what its models said.
const Query kRunTexts{"SELECT input, output, answer FROM runs WHERE id = ?1", 3};
const Query kSpanTexts{"SELECT id, note FROM spans WHERE run_id = ?1 AND note IS NOT NULL ORDER BY id", 2};
const Query kNodeTexts{
    "SELECT node, text, answer FROM node_results WHERE run_id = ?1 AND (text != '' OR answer != '') ORDER BY node", 3};
const Query kStreamed{"SELECT span_id, text FROM span_text WHERE run_id = ?1 ORDER BY span_id", 2};
const Query kAttempts{"SELECT count(*) FROM spans WHERE run_id = ?1 AND kind = 'attempt'", 1};
const Query kNodes{"SELECT count(*) FROM node_results WHERE run_id = ?1", 1};

} // namespace

class TestRunRecorder : public QObject {
    Q_OBJECT

    std::unique_ptr<Engine> m_engine;
    QTemporaryDir m_dir;

    std::string stored(RunStore& store, const Team& team, RunOrigin origin)
    {
        std::string error;
        auto recorder = store.record(team, error, std::move(origin));
        if (!recorder)
            return "error: " + error;
        Engine::StartOptions options;
        options.seed = 7;
        options.observers = {recorder.get()};
        options.clock = ClockRequest::Virtual;
        auto started = m_engine->start(team, "What is 17 times 3?", options);
        if (!started.run)
            return "error: " + started.error;
        started.run->wait();
        const auto failed = recorder->waitUntilStored();
        return failed.empty() ? recorder->id().str() : "error: " + failed;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        std::vector<std::string> errors;
        auto resources = EngineResources::load(CONCLAVE_RESOURCES, errors);
        QVERIFY(errors.empty());
        m_engine = std::make_unique<Engine>(std::move(resources));
    }

    void withoutTextTheFiguresAreKeptAndNoTextIs()
    {
        // An adaptive panel: streamed replies, node texts and answers, and round notes that quote answers.
        auto loaded = teamFromJsonText(readBytes(CONCLAVE_RESOURCES "/examples/adaptive-panel.team.json"));
        QVERIFY(loaded.team);
        const Team& team = *loaded.team;
        const auto path = (m_dir.path() + "/text.sqlite").toStdString();
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        const auto full = stored(*opened.store, team, RunOrigin{RunSource::Serve, {}, "alice"});
        const auto bare = stored(*opened.store, team, RunOrigin{RunSource::Serve, {}, "alice", false});
        QVERIFY2(full.rfind("error: ", 0) != 0, full.c_str());
        QVERIFY2(bare.rfind("error: ", 0) != 0, bare.c_str());

        SqliteDb db;
        QVERIFY(!db.open(path, SqliteDb::Mode::ReadOnly));
        // The full run has text in every kind of column the other must leave empty.
        const auto fullRun = rows(db, kRunTexts, full);
        QCOMPARE(fullRun.size(), size_t(1));
        QVERIFY2(fullRun[0].rfind("What is 17 times 3?|", 0) == 0, fullRun[0].c_str());
        QVERIFY2(fullRun[0].find("||") == std::string::npos && fullRun[0].find("NULL") == std::string::npos,
                 fullRun[0].c_str());
        QVERIFY(!rows(db, kSpanTexts, full).empty());
        QVERIFY(!rows(db, kNodeTexts, full).empty());
        QVERIFY(!rows(db, kStreamed, full).empty());

        // Figure for figure, the same run.
        for (const auto& query : {kRunFigures, kSpanFigures, kNodeFigures}) {
            const auto want = rows(db, query, full);
            QVERIFY(!want.empty());
            QCOMPARE(rows(db, query, bare), want);
        }
        QCOMPARE(rows(db, kAttempts, bare), rows(db, kAttempts, full));

        // And no text: empty input, output and answer; no note; empty node texts; no streamed text.
        QCOMPARE(rows(db, kRunTexts, bare), std::vector<std::string>{"||"});
        QCOMPARE(rows(db, kSpanTexts, bare), std::vector<std::string>{});
        QCOMPARE(rows(db, kNodeTexts, bare), std::vector<std::string>{});
        QCOMPARE(rows(db, kStreamed, bare), std::vector<std::string>{});
        QCOMPARE(rows(db, kNodes, bare), rows(db, kNodes, full));
    }
};

QTEST_GUILESS_MAIN(TestRunRecorder)
#include "tst_runrecorder.moc"
