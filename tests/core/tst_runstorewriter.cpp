// RunStoreWriter through its recorders: each run queues in a feed of its own
// and the writer takes from every feed, so runs recorded at the same time keep
// their own rows, a span that starts and then waits is committed without any
// further event, and a flush with nothing queued returns.
#include <QTemporaryDir>
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "conclave/bench/BenchTeams.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"

#include <chrono>
#include <thread>

using namespace conclave;
using namespace std::chrono_literals;

namespace {

Span makeSpan(SpanId id, const std::string& node)
{
    Span s;
    s.id = id;
    s.node = NodeId(node);
    s.name = node;
    s.startUs = int64_t(id) * 10;
    s.model = "local-fast";
    return s;
}

// Feeds `count` spans, each started, given one token and finished.
void feedSpans(RunRecorder& recorder, const std::string& prefix, int count)
{
    recorder.runStarted(prefix, 7, ClockKind::Real);
    for (int i = 1; i <= count; ++i) {
        auto s = makeSpan(SpanId(i), prefix + std::to_string(i));
        recorder.spanStarted(s);
        recorder.nodeToken(s.node, s.id, prefix + " text " + std::to_string(i), s.startUs);
        s.endUs = s.startUs + 100;
        s.status = Status::Ok;
        s.tokensOut = i;
        recorder.spanFinished(s);
    }
    RunResult result;
    result.status = RunStatus::Ok;
    result.wallUs = int64_t(count) * 10 + 100;
    recorder.runFinished(result);
}

} // namespace

class TestRunStoreWriter : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string file(const char* name) const { return (m_dir.path() + "/" + name).toStdString(); }

    static RunStore::Options fastOptions()
    {
        RunStore::Options options;
        options.writer.maxDelay = 5ms;
        options.writer.maxBatch = 64; // many batches, each taking from both feeds
        return options;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void concurrentRunsKeepTheirOwnRows()
    {
        auto opened = RunStore::open(file("two.sqlite"), fastOptions());
        QVERIFY(opened.store);
        std::string error;
        const auto team = BenchTeams::chain(1);
        auto a = opened.store->record(team, error);
        auto b = opened.store->record(team, error);
        QVERIFY(a && b);
        std::thread first([&] { feedSpans(*a, "a", 3000); });
        std::thread second([&] { feedSpans(*b, "b", 2000); });
        first.join();
        second.join();
        QCOMPARE(q(a->waitUntilStored()), QString());
        QCOMPARE(q(b->waitUntilStored()), QString());
        QVERIFY(a->progress().finished.load());
        QCOMPARE(a->progress().spansStarted.load(), uint64_t(3000));
        QCOMPARE(a->progress().spansFinished.load(), uint64_t(3000));
        QCOMPARE(b->progress().spansFinished.load(), uint64_t(2000));

        auto reader = opened.store->reader(error);
        QVERIFY(reader);
        const auto runA = reader->load(a->id(), true, error);
        const auto runB = reader->load(b->id(), true, error);
        QVERIFY(runA && runB);
        QCOMPARE(runA->spans.size(), size_t(3000));
        QCOMPARE(runB->spans.size(), size_t(2000));
        QCOMPARE(runA->texts.size(), size_t(3000));
        QCOMPARE(runB->texts.size(), size_t(2000));
        QCOMPARE(q(runA->spans[2999].node.str()), QString("a3000"));
        QCOMPARE(runA->spans[2999].endUs, int64_t(30100));
        QCOMPARE(runA->spans[2999].tokensOut, int64_t(3000));
        QVERIFY(runA->spans[2999].status == Status::Ok);
        QCOMPARE(q(runB->spans[0].node.str()), QString("b1"));
        QCOMPARE(q(runA->texts.at(17)), QString("a text 17"));
        QCOMPARE(q(runB->texts.at(1999)), QString("b text 1999"));
        QCOMPARE(q(runA->summary.input), QString("a"));
        QCOMPARE(q(runB->summary.input), QString("b"));
        QVERIFY(runA->summary.status == RunStatus::Ok);
    }

    void quietSpanIsCommittedWithoutFurtherEvents()
    {
        auto opened = RunStore::open(file("quiet.sqlite"), fastOptions());
        QVERIFY(opened.store);
        std::string error;
        auto recorder = opened.store->record(BenchTeams::chain(1), error);
        QVERIFY(recorder);
        recorder->runStarted("quiet", 1, ClockKind::Real);
        auto s = makeSpan(1, "e1");
        s.status = Status::Running;
        recorder->spanStarted(s);
        // No flush and no later event: the writer takes the feed on its own.
        QTRY_COMPARE_WITH_TIMEOUT(recorder->progress().spansStarted.load(), uint64_t(1), 10000);
        QCOMPARE(recorder->progress().spansFinished.load(), uint64_t(0));
        SqliteDb db;
        QVERIFY(!db.open(file("quiet.sqlite"), SqliteDb::Mode::ReadOnly));
        auto row = db.prepare("SELECT node, status, end_us IS NULL FROM spans");
        QVERIFY(row.step());
        QCOMPARE(q(row.text(0)), QString("e1"));
        QCOMPARE(q(row.text(1)), QString("running"));
        QCOMPARE(row.int64(2), int64_t(1));
        QVERIFY(!row.step());
    }

    void spansFinishedWithinOneBatchAreStoredFinished()
    {
        RunStore::Options options;
        options.writer.maxDelay = 10s; // one batch, taken by the flush below
        auto opened = RunStore::open(file("once.sqlite"), options);
        QVERIFY(opened.store);
        std::string error;
        auto recorder = opened.store->record(BenchTeams::chain(1), error);
        QVERIFY(recorder);
        feedSpans(*recorder, "x", 5);
        QCOMPARE(q(recorder->waitUntilStored()), QString());
        QCOMPARE(recorder->progress().spansStarted.load(), uint64_t(5));
        QCOMPARE(recorder->progress().spansFinished.load(), uint64_t(5));
        SqliteDb db;
        QVERIFY(!db.open(file("once.sqlite"), SqliteDb::Mode::ReadOnly));
        QCOMPARE(db.queryInt("SELECT count(*) FROM spans WHERE status = 'ok' AND end_us = start_us + 100").value_or(-1),
                 int64_t(5));
        QCOMPARE(db.queryInt("SELECT count(*) FROM span_text").value_or(-1), int64_t(5));
    }

    void flushWithNothingQueuedReturns()
    {
        auto opened = RunStore::open(file("empty.sqlite"), fastOptions());
        QVERIFY(opened.store);
        std::string error;
        auto recorder = opened.store->record(BenchTeams::chain(1), error);
        QVERIFY(recorder);
        QCOMPARE(q(recorder->waitUntilStored()), QString());
        QCOMPARE(q(recorder->waitUntilStored()), QString());
        QCOMPARE(recorder->progress().spansStarted.load(), uint64_t(0));
        QVERIFY(!recorder->progress().finished.load());
        recorder.reset();
        opened.store->flush();
    }
};

QTEST_GUILESS_MAIN(TestRunStoreWriter)
#include "tst_runstorewriter.moc"
