// RunStoreWaiter: waiting for a run's commit never blocks the caller — wait()
// returns while the store is still locked by another connection, and stored()
// arrives on the GUI thread once the lock is gone and the run is committed.
#include <QtTest>

#include "run/RunStoreWaiter.h"

#include "conclave/bench/BenchTeams.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SqliteDb.h"

#include <QTemporaryDir>
#include <QThread>

using namespace conclave;
using conclave::ui::RunStoreWaiter;

class TestRunStoreWaiter : public QObject {
    Q_OBJECT

private slots:
    void waitingNeverBlocksTheCaller()
    {
        QTemporaryDir dir;
        const std::filesystem::path file = (dir.path() + "/runs.sqlite").toStdString();
        auto opened = RunStore::open(file);
        QVERIFY2(opened.store, opened.error.c_str());
        std::string error;
        auto recorder = opened.store->record(BenchTeams::fanOut(2, 1), error);
        QVERIFY2(recorder, error.c_str());
        recorder->runStarted("x", 1, ClockKind::Real);
        QCOMPARE(recorder->waitUntilStored(), std::string());

        // Another connection holds the write lock: the run's end cannot be committed.
        SqliteDb lock;
        QVERIFY(!lock.open(file, SqliteDb::Mode::ReadWrite));
        QVERIFY(!lock.exec("BEGIN IMMEDIATE"));
        RunResult result;
        result.status = RunStatus::Ok;
        recorder->runFinished(result);

        RunStoreWaiter waiter;
        QSignalSpy stored(&waiter, &RunStoreWaiter::stored);
        QThread* gui = QThread::currentThread();
        QThread* deliveredOn = nullptr;
        connect(&waiter, &RunStoreWaiter::stored, this, [&] { deliveredOn = QThread::currentThread(); });
        waiter.wait(recorder.get());
        // Back here while the commit is impossible: wait() did not block.
        QVERIFY(waiter.isWaiting());
        QVERIFY(!recorder->progress().finished);
        QCOMPARE(stored.size(), 0);

        QVERIFY(!lock.exec("ROLLBACK"));
        QVERIFY(stored.wait(10000));
        QCOMPARE(stored.size(), 1);
        QCOMPARE(stored[0][0].toString(), QString());
        QCOMPARE(deliveredOn, gui);
        QVERIFY(!waiter.isWaiting());
        QVERIFY(recorder->progress().finished);
        auto reader = opened.store->reader(error);
        const auto run = reader->load(recorder->id(), false, error);
        QVERIFY2(run, error.c_str());
        QVERIFY(run->summary.status == RunStatus::Ok);
    }
};

QTEST_MAIN(TestRunStoreWaiter)
#include "tst_runstorewaiter.moc"
