// Qt first: moc fails on <compare> when a conclave header is the first it meets.
#include <QtTest>

#include "conclave/engine/ThreadPool.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace conclave;

namespace {

// Counts finished tasks and lets the test wait for a number of them.
class Countdown {
public:
    void done()
    {
        std::lock_guard lock(m_mutex);
        ++m_count;
        m_changed.notify_all();
    }
    bool waitFor(int count, std::chrono::seconds limit = std::chrono::seconds(30))
    {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, limit, [&] { return m_count >= count; });
    }
    int count()
    {
        std::lock_guard lock(m_mutex);
        return m_count;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_count = 0;
};

} // namespace

class TestThreadPool : public QObject {
    Q_OBJECT

private slots:
    void size_data()
    {
        QTest::addColumn<int>("requested");
        QTest::addColumn<int>("actual");
        QTest::newRow("zero means one") << 0 << 1;
        QTest::newRow("one") << 1 << 1;
        QTest::newRow("four") << 4 << 4;
    }

    void size()
    {
        QFETCH(int, requested);
        QFETCH(int, actual);
        ThreadPool pool(static_cast<size_t>(requested));
        QCOMPARE(pool.size(), static_cast<size_t>(actual));
    }

    void defaultSizeIsAtLeastTwo()
    {
        QVERIFY(ThreadPool::defaultSize() >= 2);
        QVERIFY(ThreadPool::defaultSize() >= std::thread::hardware_concurrency());
    }

    void manyTasksFromManyThreadsAllRun()
    {
        constexpr int kPosters = 8;
        constexpr int kPerPoster = 5000;
        std::atomic<int> ran{0};
        Countdown finished;
        {
            ThreadPool pool(3);
            std::vector<std::thread> posters;
            for (int p = 0; p < kPosters; ++p) {
                posters.emplace_back([&] {
                    for (int i = 0; i < kPerPoster; ++i) {
                        pool.post([&] {
                            ran.fetch_add(1, std::memory_order_relaxed);
                            finished.done();
                        });
                    }
                });
            }
            for (auto& t : posters)
                t.join();
            QVERIFY(finished.waitFor(kPosters * kPerPoster));
        }
        QCOMPARE(ran.load(), kPosters * kPerPoster);
    }

    void destructionDrainsQueuedTasks()
    {
        // Whatever is queued when the pool goes away still runs: no completion is lost.
        std::atomic<int> ran{0};
        std::mutex gate;
        {
            std::unique_lock hold(gate);
            ThreadPool pool(1);
            pool.post([&] { std::lock_guard wait(gate); });  // keeps the worker busy
            for (int i = 0; i < 1000; ++i)
                pool.post([&] { ran.fetch_add(1); });
            hold.unlock();
        }  // the pool goes first, then the lock
        QCOMPARE(ran.load(), 1000);
    }

    void tasksPostedFromTasksRun()
    {
        std::atomic<int> ran{0};
        Countdown finished;
        ThreadPool pool(2);
        constexpr int kRoots = 200;
        for (int i = 0; i < kRoots; ++i) {
            pool.post([&] {
                ran.fetch_add(1);
                pool.post([&] {
                    ran.fetch_add(1);
                    finished.done();
                });
            });
        }
        QVERIFY(finished.waitFor(kRoots));
        QCOMPARE(ran.load(), 2 * kRoots);
    }

    void oneWorkerRunsInPostingOrder()
    {
        std::vector<int> order;
        Countdown finished;
        {
            ThreadPool pool(1);
            for (int i = 0; i < 100; ++i) {
                pool.post([&order, &finished, i] {
                    order.push_back(i);  // one worker: no other thread touches it
                    finished.done();
                });
            }
            QVERIFY(finished.waitFor(100));
        }
        QCOMPARE(order.size(), size_t(100));
        for (int i = 0; i < 100; ++i)
            QCOMPARE(order[size_t(i)], i);
    }

    void tasksRunOnTheWorkers()
    {
        std::mutex mutex;
        std::set<std::thread::id> threads;
        Countdown finished;
        {
            ThreadPool pool(2);
            for (int i = 0; i < 200; ++i) {
                pool.post([&] {
                    {
                        std::lock_guard lock(mutex);
                        threads.insert(std::this_thread::get_id());
                    }
                    finished.done();
                });
            }
            QVERIFY(finished.waitFor(200));
        }
        QVERIFY(!threads.contains(std::this_thread::get_id()));
        QVERIFY(threads.size() >= 1 && threads.size() <= 2);
    }
};

QTEST_GUILESS_MAIN(TestThreadPool)
#include "tst_threadpool.moc"
