// RunStore: runs recorded from the engine read back exactly; bad files give
// exact errors and stay byte-for-byte the same; runs of dead processes are
// marked interrupted; a reader never sees a half-written run as finished.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "conclave/bench/BenchTeams.h"
#include "conclave/io/TeamJson.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"
#include "support/StoreRows.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <thread>

using namespace conclave;
using namespace std::chrono_literals;

namespace {

std::string readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

int64_t rowsOf(const std::string& path, const std::string& sql)
{
    SqliteDb db;
    if (db.open(path, SqliteDb::Mode::ReadOnly))
        return -1;
    return db.queryInt(sql).value_or(-1);
}

std::optional<Team> example(const char* name, double timeScale)
{
    auto loaded = teamFromJsonText(readBytes(std::string(CONCLAVE_RESOURCES "/examples/") + name));
    if (!loaded.team)
        return std::nullopt;
    for (auto& [backendName, backend] : loaded.team->backends)
        backend.timeScale = timeScale;
    return loaded.team;
}

} // namespace

class TestRunStore : public QObject {
    Q_OBJECT

    std::unique_ptr<Engine> m_engine;
    QTemporaryDir m_dir;

    std::string file(const char* name) const { return (m_dir.path() + "/" + name).toStdString(); }

    RunResult runRecorded(RunStore& store, const Team& team, const std::string& input, RunId& id)
    {
        std::string error;
        auto recorder = store.record(team, error);
        if (!recorder) {
            QTest::qFail(error.c_str(), __FILE__, __LINE__);
            return {};
        }
        id = recorder->id();
        auto started = m_engine->start(team, input, 42, {recorder.get()});
        if (!started.run) {
            QTest::qFail(started.error.c_str(), __FILE__, __LINE__);
            return {};
        }
        auto result = started.run->wait();
        const auto stored = recorder->waitUntilStored();
        if (!stored.empty())
            QTest::qFail(stored.c_str(), __FILE__, __LINE__);
        return result;
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

    void newStoreIsCreatedWithTheSchema()
    {
        const auto path = file("sub/dir/new.sqlite");
        auto opened = RunStore::open(path);
        QCOMPARE(q(opened.error), QString());
        QVERIFY(opened.store);
        SqliteDb db;
        QVERIFY(!db.open(path, SqliteDb::Mode::ReadOnly));
        QCOMPARE(db.queryInt("PRAGMA user_version").value_or(-1), int64_t(9));
        auto mode = db.prepare("PRAGMA journal_mode");
        QVERIFY(mode.step());
        QCOMPARE(q(mode.text(0)), QString("wal"));
        // Opening again is a no-op migration.
        opened.store.reset();
        QVERIFY(RunStore::open(path).store);
    }

    // A store written by main at schema 5 (tests/data/stores/v5.sqlite): it opens,
    // migrates to 7, and reads back; its calls read as not recorded for replay,
    // its trials as having replayed none.
    void aVersion5StoreOpensAndItsCallsReadAsNotRecorded()
    {
        const auto path = file("v5-copy.sqlite");
        QVERIFY(QFile::copy(QStringLiteral(CONCLAVE_TEST_DATA "/stores/v5.sqlite"), QString::fromStdString(path)));
        QFile::setPermissions(QString::fromStdString(path), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        auto opened = RunStore::open(path);
        QCOMPARE(q(opened.error), QString());
        QCOMPARE(rowsOf(path, "PRAGMA user_version"), int64_t(9));
        std::string error;
        auto reader = opened.store->reader(error);
        QVERIFY2(reader, error.c_str());
        const auto run = reader->load(RunId("f1430f2e554a"), true, error);
        QVERIFY2(run, error.c_str());
        int calls = 0;
        for (const auto& span : run->spans) {
            if (span.kind != SpanKind::Attempt)
                continue;
            ++calls;
            QCOMPARE(span.inflight, int64_t(0));
            QCOMPARE(span.waitUs, int64_t(-1));
            QCOMPARE(q(span.draw), QString());
            QCOMPARE(span.serviceUs(), span.durationUs());
        }
        QCOMPARE(calls, 5);
        QCOMPARE(rowsOf(path, "SELECT count(*) FROM trials WHERE experiment_id = 'e-8dce474a8eb2'"), int64_t(6));
        const auto trials = reader->trials("e-8dce474a8eb2", error);
        QVERIFY2(trials, error.c_str());
        QCOMPARE(trials->size(), size_t(6));
        for (const auto& trial : *trials)
            QCOMPARE(trial.replayedCalls, 0);
        QCOMPARE(rowsOf(path, "SELECT count(*) FROM trials WHERE replayed_calls <> 0"), int64_t(0));
        // A run recorded into it now keeps what replay needs.
        const auto team = example("triage.team.json", 0.01);
        QVERIFY(team);
        RunId id;
        runRecorded(*opened.store, *team, "Calculate 323 + 460.", id);
        const auto fresh = reader->load(id, true, error);
        QVERIFY2(fresh, error.c_str());
        int recorded = 0;
        for (const auto& span : fresh->spans) {
            if (span.kind != SpanKind::Attempt || span.status != Status::Ok)
                continue;
            ++recorded;
            QCOMPARE(span.waitUs, int64_t(0));
            QVERIFY(span.inflight >= 1);
            QVERIFY(!span.draw.empty());
            QVERIFY(!fresh->texts.at(span.id).empty());
        }
        QVERIFY(recorded > 0);
    }

    void runReadsBackExactly()
    {
        auto opened = RunStore::open(file("roundtrip.sqlite"));
        QVERIFY(opened.store);
        const auto team = example("triage.team.json", 0.01);
        QVERIFY(team);
        RunId id;
        const auto result = runRecorded(*opened.store, *team, "Calculate 323 + 460.", id);
        std::string error;
        auto reader = opened.store->reader(error);
        QVERIFY(reader);
        const auto run = reader->load(id, true, error);
        QVERIFY2(run, error.c_str());
        QCOMPARE(run->spans.size(), result.spans.size());
        for (size_t i = 0; i < result.spans.size(); ++i)
            QVERIFY2(run->spans[i] == result.spans[i], qPrintable(QString::number(i)));
        QVERIFY(run->summary.status == result.status);
        QCOMPARE(q(run->summary.teamName), q(team->name));
        QCOMPARE(q(run->summary.input), QString("Calculate 323 + 460."));
        QCOMPARE(run->summary.seed, uint64_t(42));
        QCOMPARE(run->summary.wallUs, result.wallUs);
        QCOMPARE(run->summary.criticalPathUs, result.criticalPath.lengthUs);
        QVERIFY(run->criticalPath == result.criticalPath.nodes);
        QCOMPARE(run->summary.tokensIn, result.tokensIn);
        QCOMPARE(run->summary.tokensOut, result.tokensOut);
        QCOMPARE(run->summary.costUsd, result.costUsd);
        QCOMPARE(run->summary.calls, result.calls);
        // The output's text and verdict; its usage is in the output node's row.
        QVERIFY(run->output.status == result.output.status);
        QCOMPARE(q(run->output.text), q(result.output.text));
        QCOMPARE(q(run->output.answer), q(result.output.answer));
        QCOMPARE(run->output.confidence, result.output.confidence);
        QCOMPARE(q(run->output.error), q(result.output.error));
        QCOMPARE(run->nodes.size(), result.results.size());
        for (const auto& n : run->nodes)
            QVERIFY(n.result == result.results.at(n.node));
        QVERIFY(run->summary.endedAtMs >= run->summary.startedAtMs);
        QCOMPARE(q(run->teamJson), q(teamToJsonText(*team)));
        // Every call attempt streamed text.
        for (const auto& s : run->spans) {
            if (s.kind == SpanKind::Attempt && s.status == Status::Ok)
                QVERIFY2(run->texts.count(s.id) && !run->texts.at(s.id).empty(), qPrintable(q(s.node.str())));
        }
        const auto listed = reader->list({}, error);
        QVERIFY(listed);
        QCOMPARE(listed->size(), size_t(1));
        QCOMPARE(q(listed->front().id.str()), q(id.str()));
        QCOMPARE(q(reader->resolve(id.str().substr(0, 4), error).value_or(RunId()).str()), q(id.str()));
    }

    void streamedTextIsCapped()
    {
        RunStore::Options options;
        options.textCapBytes = 10;
        auto opened = RunStore::open(file("cap.sqlite"), options);
        QVERIFY(opened.store);
        std::string error;
        auto recorder = opened.store->record(BenchTeams::chain(1), error);
        recorder->runStarted("x", 1, ClockKind::Real);
        Span s;
        s.id = 1;
        s.node = NodeId("e1");
        recorder->spanStarted(s);
        recorder->nodeToken(s.node, 1, "123456", 0);
        recorder->nodeToken(s.node, 1, "789abcdef", 0);
        s.endUs = 5;
        s.status = Status::Ok;
        recorder->spanFinished(s);
        recorder->waitUntilStored();
        SqliteDb db;
        QVERIFY(!db.open(file("cap.sqlite"), SqliteDb::Mode::ReadOnly));
        auto row = db.prepare("SELECT text, truncated FROM span_text");
        QVERIFY(row.step());
        QCOMPARE(q(row.text(0)), QString("123456789a"));
        QCOMPARE(row.int64(1), int64_t(1));
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("error"); // after "FILE: "
        QTest::newRow("empty") << "empty.sqlite"
                               << "the file is empty, not a Conclave run store";
        QTest::newRow("random bytes") << "random.sqlite"
                                      << "not an SQLite database";
        QTest::newRow("newer user_version")
            << "newer.sqlite"
            << "written by a newer Conclave (store schema version 99; this one reads up to 9)";
        QTest::newRow("read-only") << "readonly.sqlite"
                                   << "the database is read-only";
        QTest::newRow("other SQLite database") << "other.sqlite"
                                               << "an SQLite database, but not a Conclave run store";
        QTest::newRow("corrupt") << "corrupt.sqlite"
                                 << "the database is corrupt (file is not a database)";
        QTest::newRow("folder") << "folder.sqlite"
                                << "is a folder, not a database file";
    }

    void badFiles()
    {
        QFETCH(QString, name);
        QFETCH(QString, error);
        const auto path = file(qPrintable(name));
        std::mt19937 rng(7);
        std::string random(8192, '\0');
        for (auto& c : random)
            c = char(rng());
        if (name == "empty.sqlite") {
            writeBytes(path, "");
        } else if (name == "random.sqlite") {
            writeBytes(path, random);
        } else if (name == "newer.sqlite" || name == "other.sqlite" || name == "readonly.sqlite") {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::Create));
            QVERIFY(!db.exec(name == "other.sqlite" ? "CREATE TABLE t (x)"
                                                    : "CREATE TABLE t (x); PRAGMA user_version = 99"));
            if (name == "readonly.sqlite") {
                db = SqliteDb();
                auto made = RunStore::open(path + ".tmp");
                QVERIFY(made.store);
                made.store.reset();
                std::filesystem::rename(path + ".tmp", path);
                std::filesystem::remove(path + ".tmp-wal");
                std::filesystem::remove(path + ".tmp-shm");
                QCOMPARE(::chmod(path.c_str(), 0444), 0);
            }
        } else if (name == "corrupt.sqlite") {
            // A valid header, then garbage: SQLite's own check refuses it.
            writeBytes(path, std::string("SQLite format 3\0", 16) + random);
        } else if (name == "folder.sqlite") {
            std::filesystem::create_directory(path);
        }
        const auto before = std::filesystem::is_directory(path) ? std::string() : readBytes(path);
        auto opened = RunStore::open(path);
        QVERIFY(!opened.store);
        QCOMPARE(q(opened.error), q(path) + ": " + error);
        if (!std::filesystem::is_directory(path)) {
            QVERIFY(readBytes(path) == before);
            QVERIFY(!std::filesystem::exists(path + "-wal"));
        }
    }

    // Opening for reading creates nothing: not the file, not its folder.
    void readingAMissingFileCreatesNothing()
    {
        const auto path = file("nowhere/missing.sqlite");
        auto opened = RunStore::openForReading(path);
        QVERIFY(!opened.store);
        QCOMPARE(q(opened.error), q(path) + ": no such run store");
        QVERIFY(!std::filesystem::exists(file("nowhere")));
    }

    // Bad files are refused for reading as for writing, untouched; read-only is no fault.
    void readingRefusesBadFiles()
    {
        const auto empty = file("read-empty.sqlite");
        writeBytes(empty, "");
        QCOMPARE(q(RunStore::openForReading(empty).error), q(empty) + ": the file is empty, not a Conclave run store");
        QCOMPARE(readBytes(empty), std::string());
        const auto folder = file("read-folder.sqlite");
        std::filesystem::create_directory(folder);
        QCOMPARE(q(RunStore::openForReading(folder).error), q(folder) + ": is a folder, not a database file");
    }

    // A writable store of an older schema is migrated by a reader: its only write.
    void readingMigratesAWritableOlderStore()
    {
        const auto path = file("read-v4.sqlite");
        QVERIFY(testsupport::makeOlderStore(path, 4));
        auto opened = RunStore::openForReading(path);
        QCOMPARE(q(opened.error), QString());
        QCOMPARE(rowsOf(path, "PRAGMA user_version"), int64_t(9));
        std::string error;
        auto reader = opened.store->reader(error);
        const auto runs = reader->list({}, error);
        QVERIFY2(runs, error.c_str());
        QCOMPARE(runs->size(), size_t(1));
        QVERIFY(runs->front().status == RunStatus::Ok);
    }

    // A read-only store of an older schema is refused, saying how to upgrade it, and left as it was.
    void readingRefusesAReadOnlyOlderStore()
    {
        const auto path = file("read-only-v4.sqlite");
        QVERIFY(testsupport::makeOlderStore(path, 4));
        QCOMPARE(::chmod(path.c_str(), 0444), 0);
        const auto before = readBytes(path);
        auto opened = RunStore::openForReading(path);
        QVERIFY(!opened.store);
        QCOMPARE(q(opened.error), q(path +
                                    ": store schema version 4 needs upgrading to 9, but the file is read-only; "
                                    "make it writable and run conclave runs list --db " +
                                    path + " once to upgrade it"));
        QVERIFY(readBytes(path) == before);
        QVERIFY(!std::filesystem::exists(path + "-wal"));
        QVERIFY(!std::filesystem::exists(path + "-shm"));
    }

    // A read-only store of this schema is read, and nothing is made beside it.
    void readingAReadOnlyStore()
    {
        const auto path = file("read-only.sqlite");
        RunId id;
        size_t spans = 0;
        {
            auto opened = RunStore::open(path);
            QVERIFY(opened.store);
            spans = runRecorded(*opened.store, BenchTeams::chain(2), "x", id).spans.size();
        }
        QVERIFY(spans > 0);
        QVERIFY(!std::filesystem::exists(path + "-wal"));
        QCOMPARE(::chmod(path.c_str(), 0444), 0);
        const auto before = readBytes(path);
        auto opened = RunStore::openForReading(path);
        QCOMPARE(q(opened.error), QString());
        std::string error;
        auto reader = opened.store->reader(error);
        QVERIFY2(reader, error.c_str());
        const auto run = reader->load(id, true, error);
        QVERIFY2(run, error.c_str());
        QCOMPARE(run->spans.size(), spans);
        QCOMPARE(q(opened.store->record(BenchTeams::chain(1), error) ? std::string() : error),
                 q(path + ": opened for reading only"));
        reader.reset();
        opened.store.reset();
        QVERIFY(readBytes(path) == before);
        QVERIFY(!std::filesystem::exists(path + "-wal"));
        QVERIFY(!std::filesystem::exists(path + "-shm"));
    }

    // A run whose writer is gone reads as interrupted to a reader, which writes nothing.
    void readingShowsADeadWritersRunAsInterrupted()
    {
        const auto path = file("read-dead.sqlite");
        auto writing = RunStore::open(path);
        QVERIFY(writing.store);
        std::string error;
        auto dead = writing.store->record(BenchTeams::chain(2), error);
        auto alive = writing.store->record(BenchTeams::chain(2), error);
        for (auto* recorder : {dead.get(), alive.get()}) {
            recorder->runStarted("x", 3, ClockKind::Real);
            recorder->waitUntilStored();
        }
        {
            SqliteDb db;
            QVERIFY(!db.open(path, SqliteDb::Mode::ReadWrite));
            QVERIFY(!db.exec("UPDATE runs SET pid_start = -5 WHERE id = '" + dead->id().str() + "'"));
        }
        auto opened = RunStore::openForReading(path);
        QVERIFY2(opened.store, opened.error.c_str());
        QCOMPARE(opened.store->recoveredRuns(), 0);
        auto reader = opened.store->reader(error);
        QVERIFY(reader->load(dead->id(), false, error)->summary.status == RunStatus::Interrupted);
        QVERIFY(reader->load(alive->id(), false, error)->summary.status == RunStatus::Running);
        RunFilter filter;
        filter.status = RunStatus::Interrupted;
        const auto interrupted = reader->list(filter, error);
        QVERIFY2(interrupted, error.c_str());
        QCOMPARE(interrupted->size(), size_t(1));
        QCOMPARE(q(interrupted->front().id.str()), q(dead->id().str()));
        QVERIFY(interrupted->front().status == RunStatus::Interrupted);
        filter.status = RunStatus::Running;
        QCOMPARE(reader->count(filter, error).value_or(-1), int64_t(1));
        QCOMPARE(rowsOf(path, "SELECT count(*) FROM runs WHERE status = 'running'"), int64_t(2));
        // Nor does it delete.
        QCOMPARE(q(opened.store->remove({dead->id()}).error), q(path + ": opened for reading only"));
        QCOMPARE(q(opened.store->prune(0).error), q(path + ": opened for reading only"));
        QCOMPARE(rowsOf(path, "SELECT count(*) FROM runs"), int64_t(2));
    }

    void interruptedRunsAreMarkedOnOpen()
    {
        const auto path = file("interrupted.sqlite");
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        std::string error;
        auto dead = opened.store->record(BenchTeams::chain(2), error);
        auto alive = opened.store->record(BenchTeams::chain(2), error);
        for (auto* recorder : {dead.get(), alive.get()}) {
            recorder->runStarted("x", 3, ClockKind::Real);
            for (SpanId i = 1; i <= 3; ++i) {
                Span s;
                s.id = i;
                s.node = NodeId("e" + std::to_string(i));
                s.startUs = int64_t(i) * 100;
                recorder->spanStarted(s);
                if (i < 3) {
                    s.endUs = s.startUs + 50;
                    s.status = Status::Ok;
                    recorder->spanFinished(s);
                }
            }
            recorder->waitUntilStored();
        }
        // The process that wrote `dead` is gone: its start time no longer matches.
        SqliteDb db;
        QVERIFY(!db.open(path, SqliteDb::Mode::ReadWrite));
        QVERIFY(!db.exec("UPDATE runs SET pid_start = -5 WHERE id = '" + dead->id().str() + "'"));
        auto again = RunStore::open(path);
        QVERIFY(again.store);
        QCOMPARE(again.store->recoveredRuns(), 1);
        auto reader = again.store->reader(error);
        const auto run = reader->load(dead->id(), false, error);
        QVERIFY(run);
        QVERIFY(run->summary.status == RunStatus::Interrupted);
        QCOMPARE(run->spans.size(), size_t(3));
        QCOMPARE(run->spans[2].endUs, int64_t(-1));
        QCOMPARE(run->summary.wallUs, int64_t(300));
        const auto live = reader->load(alive->id(), false, error);
        QVERIFY(live->summary.status == RunStatus::Running);
    }

    void listFiltersDeleteAndPrune()
    {
        const auto path = file("list.sqlite");
        auto opened = RunStore::open(path);
        QVERIFY(opened.store);
        auto& store = *opened.store;
        const auto team = BenchTeams::fanOut(3, 1);
        std::vector<RunId> ids(5);
        for (auto& id : ids)
            runRecorded(store, team, "x", id);
        std::string error;
        auto reader = store.reader(error);
        RunFilter filter;
        filter.limit = 2;
        QCOMPARE(reader->list(filter, error)->size(), size_t(2));
        QCOMPARE(q(reader->list(filter, error)->front().id.str()), q(ids.back().str()));
        filter = {};
        filter.team = team.name;
        QCOMPARE(reader->list(filter, error)->size(), size_t(5));
        filter.team = "nobody";
        QCOMPARE(reader->list(filter, error)->size(), size_t(0));
        filter = {};
        filter.status = RunStatus::Failed;
        QCOMPARE(reader->list(filter, error)->size(), size_t(0));

        const auto deleted = store.remove({ids[0]});
        QCOMPARE(deleted.count, 1);
        QVERIFY(!reader->load(ids[0], false, error));
        QCOMPARE(q(error), q("no run \"" + ids[0].str() + "\""));
        const auto pruned = store.prune(2);
        QCOMPARE(pruned.count, 2);
        const auto left = reader->list({}, error);
        QCOMPARE(left->size(), size_t(2));
        QCOMPARE(q(left->at(0).id.str()), q(ids[4].str()));
        QCOMPARE(q(left->at(1).id.str()), q(ids[3].str()));
        SqliteDb db;
        QVERIFY(!db.open(path, SqliteDb::Mode::ReadOnly));
        QCOMPARE(db.queryInt("SELECT count(DISTINCT run_id) FROM spans").value_or(-1), int64_t(2));
    }

    // A reader lists and loads in a loop while runs are written: no error ever
    // reaches it, and a run it sees finished has all its spans, all closed.
    void concurrentReader()
    {
        const auto path = file("concurrent.sqlite");
        RunStore::Options options;
        options.writer.maxDelay = 5ms;
        options.writer.maxBatch = 50; // many small commits: many chances to see a half-written run
        auto opened = RunStore::open(path, options);
        QVERIFY(opened.store);
        const auto team = BenchTeams::fanOut(200, 2);
        std::atomic<bool> stop{false};
        std::atomic<int> loads{0}, finishedSeen{0};
        std::string readerError;
        std::atomic<size_t> expectedSpans{0};
        std::thread reader([&] {
            std::string error;
            auto queries = opened.store->reader(error);
            while (!stop.load() && readerError.empty()) {
                const auto runs = queries->list({}, error);
                if (!runs) {
                    readerError = "list: " + error;
                    break;
                }
                for (const auto& r : *runs) {
                    const auto run = queries->load(r.id, false, error);
                    if (!run) {
                        readerError = "load: " + error;
                        break;
                    }
                    ++loads;
                    if (run->summary.status == RunStatus::Running)
                        continue;
                    ++finishedSeen;
                    const auto want = expectedSpans.load();
                    if (want && run->spans.size() != want)
                        readerError = "a finished run with " + std::to_string(run->spans.size()) + " spans";
                    for (const auto& s : run->spans) {
                        if (s.endUs < 0)
                            readerError = "a finished run with an open span";
                    }
                }
            }
        });
        for (int i = 0; i < 6; ++i) {
            RunId id;
            const auto result = runRecorded(*opened.store, team, "x", id);
            expectedSpans.store(result.spans.size());
        }
        stop.store(true);
        reader.join();
        QCOMPARE(q(readerError), QString());
        QVERIFY(loads.load() > 0);
        QVERIFY(finishedSeen.load() > 0);
    }
};

QTEST_GUILESS_MAIN(TestRunStore)
#include "tst_runstore.moc"
