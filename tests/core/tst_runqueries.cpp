// RunQueries: listing filtered by team, status and text, newest first, a page
// at a time (limit and offset), the count of a filter's matches and the team
// names — the queries the studio's history dock pages through.
#include <QTemporaryDir>
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "support/SampleRuns.h"

using namespace conclave;
using sample_runs::newestFirst;

namespace {

constexpr int kRuns = 25;

std::vector<RunId> idsOf(const std::optional<std::vector<RunSummary>>& runs)
{
    std::vector<RunId> ids;
    for (const auto& r : runs.value_or(std::vector<RunSummary>{}))
        ids.push_back(r.id);
    return ids;
}

} // namespace

class TestRunQueries : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;
    std::unique_ptr<RunQueries> m_reader;
    std::vector<RunId> m_ids;

private slots:
    void initTestCase()
    {
        auto opened = RunStore::open((m_dir.path() + "/runs.sqlite").toStdString());
        QVERIFY2(opened.store, opened.error.c_str());
        m_store = std::move(opened.store);
        m_ids = sample_runs::store(*m_store, kRuns); // see SampleRuns.h for what each run is
        QCOMPARE(m_ids.size(), size_t(kRuns));
        std::string error;
        m_reader = m_store->reader(error);
        QVERIFY2(m_reader, error.c_str());
    }

    void pagesNewestFirst()
    {
        std::string error;
        RunFilter filter;
        filter.limit = 10;
        QCOMPARE(idsOf(m_reader->list(filter, error)), newestFirst(m_ids, 24, 15));
        filter.offset = 10;
        QCOMPARE(idsOf(m_reader->list(filter, error)), newestFirst(m_ids, 14, 5));
        filter.offset = 20;
        QCOMPARE(idsOf(m_reader->list(filter, error)), newestFirst(m_ids, 4, 0));
        filter.offset = 25;
        QCOMPARE(m_reader->list(filter, error)->size(), size_t(0));
        filter.limit = 0; // an offset alone: the rest
        filter.offset = 22;
        QCOMPARE(idsOf(m_reader->list(filter, error)), newestFirst(m_ids, 2, 0));
        QCOMPARE(m_reader->count(filter, error), std::optional<int64_t>(25)); // paging aside
        QVERIFY2(error.empty(), error.c_str());
    }

    void filters_data()
    {
        QTest::addColumn<QString>("team");
        QTest::addColumn<int>("status"); // -1: any
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("newest"); // index of the first run listed, -1 when none

        const int failed = int(RunStatus::Failed);
        QTest::newRow("all") << "" << -1 << "" << 25 << 24;
        QTest::newRow("team alpha") << "alpha" << -1 << "" << 15 << 14;
        QTest::newRow("team beta") << "beta" << -1 << "" << 10 << 24;
        QTest::newRow("no such team") << "gamma" << -1 << "" << 0 << -1;
        QTest::newRow("failed") << "" << failed << "" << 5 << 24;
        QTest::newRow("alpha failed") << "alpha" << failed << "" << 3 << 14;
        QTest::newRow("input, any case") << "" << -1 << "sky" << 9 << 24;
        QTest::newRow("input upper") << "" << -1 << "SKY BLUE" << 9 << 24;
        QTest::newRow("beta sky failed") << "beta" << failed << "sky" << 1 << 24;
        QTest::newRow("beta sky") << "beta" << -1 << "Sky" << 4 << 24;
        QTest::newRow("answer") << "" << -1 << "ANSWER-13" << 1 << 13;
        QTest::newRow("team name as text") << "" << -1 << "BET" << 10 << 24;
        QTest::newRow("% and _ are literal") << "" << -1 << "%_" << 1 << 7;
        QTest::newRow("no match") << "" << -1 << "zebra" << 0 << -1;
    }

    void filters()
    {
        QFETCH(QString, team);
        QFETCH(int, status);
        QFETCH(QString, text);
        QFETCH(int, count);
        QFETCH(int, newest);
        RunFilter filter;
        filter.team = team.toStdString();
        if (status >= 0)
            filter.status = RunStatus(status);
        filter.text = text.toStdString();
        std::string error;
        QCOMPARE(m_reader->count(filter, error), std::optional<int64_t>(count));
        const auto runs = m_reader->list(filter, error);
        QVERIFY2(runs, error.c_str());
        QCOMPARE(int(runs->size()), count);
        if (newest >= 0)
            QCOMPARE(q(runs->front().id.str()), q(m_ids[size_t(newest)].str()));
        filter.limit = 2;
        filter.offset = 1;
        QCOMPARE(int(m_reader->list(filter, error)->size()), std::clamp(count - 1, 0, 2));
    }

    void aRunIdPrefixMatches()
    {
        RunFilter filter;
        filter.text = m_ids[3].str().substr(0, 12);
        std::string error;
        QCOMPARE(idsOf(m_reader->list(filter, error)), std::vector<RunId>{m_ids[3]});
    }

    void teamNames()
    {
        std::string error;
        QCOMPARE(m_reader->teamNames(error), std::optional<std::vector<std::string>>({"alpha", "beta"}));
        QVERIFY2(error.empty(), error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRunQueries)
#include "tst_runqueries.moc"
