// RecentRuns: the last N finished runs of a team, newest first, read from a
// store holding three finished runs of one team and one still running.
#include <QtTest>

#include "support/KnownRuns.h"

#include "conclave/analysis/RecentRuns.h"
#include "conclave/io/TeamJson.h"
#include "conclave/model/Team.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

using namespace conclave;

class TestRecentRuns : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        auto opened = RunStore::open(m_dir.filePath("runs.sqlite").toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        m_store = std::move(opened.store);
        std::string error;
        const Team team = *teamFromJsonText(known_runs::kTeam).team;
        for (int i = 0; i < 3; ++i) {
            auto recorder = m_store->record(team, error);
            QVERIFY(recorder);
            recorder->runStarted("q", 1, ClockKind::Real);
            for (const auto& s : known_runs::review("x", i + 1).spans) {
                recorder->spanStarted(s);
                recorder->spanFinished(s);
            }
            RunResult result;
            result.status = RunStatus::Ok;
            result.wallUs = 9300 * (i + 1);
            recorder->runFinished(result);
            QCOMPARE(recorder->waitUntilStored(), std::string());
        }
        m_running = m_store->record(team, error);
        QVERIFY(m_running);
        m_running->runStarted("still going", 1, ClockKind::Real);
        QCOMPARE(m_running->waitUntilStored(), std::string());
        auto reader = m_store->reader(error);
        QVERIFY(reader);
        RunFilter all;
        all.team = "review";
        const auto listed = reader->list(all, error);
        QVERIFY(listed);
        QCOMPARE(int(listed->size()), 4);
        QVERIFY(listed->front().status == RunStatus::Running);
    }

    void lastFinished_data()
    {
        QTest::addColumn<QString>("team");
        QTest::addColumn<int>("n");
        QTest::addColumn<QList<qint64>>("walls");
        QTest::newRow("the last two") << "review" << 2 << QList<qint64>{27900, 18600};
        QTest::newRow("all three, not the running one") << "review" << 5 << QList<qint64>{27900, 18600, 9300};
        QTest::newRow("none asked") << "review" << 0 << QList<qint64>{};
        QTest::newRow("another team") << "another team" << 2 << QList<qint64>{};
    }

    void lastFinished()
    {
        QFETCH(QString, team);
        QFETCH(int, n);
        QFETCH(QList<qint64>, walls);
        std::string error;
        auto reader = m_store->reader(error);
        QVERIFY(reader);
        QList<qint64> got;
        for (const auto& run : RecentRuns::lastFinished(*reader, team.toStdString(), n, error))
            got << run.summary.wallUs;
        QCOMPARE(got, walls);
        QCOMPARE(error, std::string());
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;
    std::unique_ptr<RunRecorder> m_running;
};

QTEST_GUILESS_MAIN(TestRecentRuns)
#include "tst_recentruns.moc"
