// RunHistoryPanel: the history dock asks the store for one page of the runs
// matching its filters, newest first; "Load more" and scrolling to the end add
// the next page; a filter change starts again from the first page of its
// matches; refresh() keeps as many runs as were shown. Exact counts throughout.
#include <QtTest>

#include "support/SampleRuns.h"

#include "conclave/bench/BenchTeams.h"
#include "support/StoreRows.h"

#include "run/RunController.h"
#include "run/RunHistoryPanel.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace conclave;
using conclave::ui::RunController;
using conclave::ui::RunHistoryPanel;
using sample_runs::newestFirst;

class TestRunHistoryPanel : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;
    std::vector<RunId> m_ids; // see SampleRuns.h for what each run is

    std::filesystem::path db() const { return (m_dir.path() + "/runs.sqlite").toStdString(); }

private slots:
    void initTestCase()
    {
        auto opened = RunStore::open(db());
        QVERIFY2(opened.store, opened.error.c_str());
        m_store = std::move(opened.store);
        m_ids = sample_runs::store(*m_store, 25);
        QCOMPARE(m_ids.size(), size_t(25));
    }

    void pagesThroughTheStore()
    {
        RunController controller({}, db());
        RunHistoryPanel panel(&controller);
        panel.setPageSize(10);
        QVERIFY(panel.refresh());
        QCOMPARE(panel.matchCount(), int64_t(25));
        QCOMPARE(panel.visibleRuns(), newestFirst(m_ids, 24, 15));
        QCOMPARE(panel.list()->topLevelItemCount(), 10);
        QCOMPARE(panel.findChild<QLabel*>("historyCount")->text(), QString("10 of 25"));
        QVERIFY(panel.loadMoreButton()->isEnabled());
        QVERIFY(panel.loadMore());
        QCOMPARE(panel.visibleRuns(), newestFirst(m_ids, 24, 5));
        QTest::mouseClick(panel.loadMoreButton(), Qt::LeftButton);
        QCOMPARE(panel.visibleRuns(), newestFirst(m_ids, 24, 0));
        QCOMPARE(panel.list()->topLevelItemCount(), 25);
        QVERIFY(!panel.hasMore());
        QVERIFY(!panel.loadMoreButton()->isEnabled());
        QCOMPARE(panel.findChild<QLabel*>("historyCount")->text(), QString("25 of 25"));
        QVERIFY(panel.loadMore()); // nothing left: nothing changes
        QCOMPARE(panel.list()->topLevelItemCount(), 25);
        QCOMPARE(panel.teams(), QStringList({"All teams", "alpha", "beta"}));
    }

    void filtersAreTheStoresQuery()
    {
        RunController controller({}, db());
        RunHistoryPanel panel(&controller);
        panel.setPageSize(10);
        QVERIFY(panel.refresh());
        QVERIFY(panel.loadMore());
        QCOMPARE(panel.runs().size(), size_t(20));

        panel.setTeamFilter("beta"); // back to the first page of the matches
        QCOMPARE(panel.filter().team, std::string("beta"));
        QCOMPARE(panel.matchCount(), int64_t(10));
        QCOMPARE(panel.visibleRuns(), newestFirst(m_ids, 24, 15));
        QVERIFY(!panel.hasMore());
        panel.setStatusFilter(RunStatus::Failed);
        QCOMPARE(panel.visibleRuns(), (std::vector<RunId>{m_ids[24], m_ids[19]}));
        panel.setTeamFilter({});
        QCOMPARE(panel.matchCount(), int64_t(5));
        QCOMPARE(panel.visibleRuns(), (std::vector<RunId>{m_ids[24], m_ids[19], m_ids[14], m_ids[9], m_ids[4]}));
        panel.setStatusFilter(std::nullopt);
        panel.setTextFilter("sky"); // the input says "SKY"
        QCOMPARE(panel.matchCount(), int64_t(9));
        QCOMPARE(panel.visibleRuns(), (std::vector<RunId>{m_ids[24], m_ids[21], m_ids[18], m_ids[15], m_ids[12],
                                                          m_ids[9], m_ids[6], m_ids[3], m_ids[0]}));
        panel.setTextFilter("ANSWER-1"); // answers 1 and 10 to 19
        QCOMPARE(panel.matchCount(), int64_t(11));
        QCOMPARE(panel.runs().size(), size_t(10));
        QVERIFY(panel.loadMore());
        QCOMPARE(panel.visibleRuns().back(), m_ids[1]);
        panel.setTextFilter(QString::fromStdString(m_ids[7].str()));
        QCOMPARE(panel.visibleRuns(), std::vector<RunId>{m_ids[7]});
        panel.setTextFilter({});
        QCOMPARE(panel.matchCount(), int64_t(25));
        QCOMPARE(panel.runs().size(), size_t(10));
    }

    void refreshKeepsWhatIsShownAndAddsNewRuns()
    {
        QTemporaryDir dir;
        const std::filesystem::path file = (dir.path() + "/runs.sqlite").toStdString();
        auto opened = RunStore::open(file);
        QVERIFY(opened.store);
        auto ids = sample_runs::store(*opened.store, 12);
        RunController controller({}, file);
        RunHistoryPanel panel(&controller);
        panel.setPageSize(5);
        QVERIFY(panel.refresh());
        QVERIFY(panel.loadMore());
        panel.selectRuns({ids[8]});
        ids.push_back(sample_runs::storeOne(*opened.store, 12));
        QVERIFY(panel.refresh());
        QCOMPARE(panel.matchCount(), int64_t(13));
        QCOMPARE(panel.visibleRuns(), newestFirst(ids, 12, 3)); // still 10 shown, the new one first
        QCOMPARE(panel.selectedRuns(), std::vector<RunId>{ids[8]});
    }

    void scrollingToTheEndLoadsMore()
    {
        RunController controller({}, db());
        RunHistoryPanel panel(&controller);
        panel.setPageSize(10);
        panel.resize(900, 160);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.refresh());
        QCOMPARE(panel.runs().size(), size_t(10));
        QScrollBar* bar = panel.list()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        bar->setValue(bar->maximum());
        QCOMPARE(panel.runs().size(), size_t(20));
        QCOMPARE(panel.visibleRuns(), newestFirst(m_ids, 24, 5));
    }

    void anEmptyOrMissingStoreListsNothing()
    {
        QTemporaryDir dir;
        RunController controller({}, (dir.path() + "/none.sqlite").toStdString());
        RunHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        QCOMPARE(panel.matchCount(), int64_t(0));
        QCOMPARE(panel.runs().size(), size_t(0));
        QCOMPARE(panel.teams(), QStringList({"All teams"}));
        QVERIFY(!QFile::exists(dir.path() + "/none.sqlite")); // reading never creates a store
    }

    void readsAStoreOfAnOlderSchema()
    {
        // Written by an older Conclave (schema 7) and not opened for writing since:
        // the history upgrades it as `conclave runs list` does, and lists its run.
        const std::string file = (m_dir.path() + "/v7.sqlite").toStdString();
        QVERIFY(testsupport::makeOlderStore(file, 7));
        RunController controller({}, file);
        RunHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        QCOMPARE(panel.matchCount(), int64_t(1));
        QCOMPARE(panel.visibleRuns(), std::vector<RunId>{RunId("00000000000a")});
    }

    void sourceFilter()
    {
        const std::filesystem::path file = (m_dir.path() + "/sources.sqlite").toStdString();
        std::vector<RunId> ids; // run, studio, serve, eval (a trial)
        {
            auto opened = RunStore::open(file);
            QVERIFY2(opened.store, opened.error.c_str());
            for (const auto& origin : {RunOrigin{}, RunOrigin{RunSource::Studio, {}, {}},
                                       RunOrigin{RunSource::Serve, {}, "alice"},
                                       RunOrigin{RunSource::Eval, "e-000000000001", {}}}) {
                std::string error;
                auto recorder = opened.store->record(BenchTeams::chain(1), error, origin);
                QVERIFY2(recorder, error.c_str());
                recorder->runStarted("q", 1, ClockKind::Real);
                QCOMPARE(QString::fromStdString(recorder->waitUntilStored()), QString());
                ids.push_back(recorder->id());
            }
        }
        RunController controller({}, file);
        RunHistoryPanel panel(&controller);
        QVERIFY(panel.refresh());
        auto* box = panel.findChild<QComboBox*>("historySource");
        QVERIFY(box);
        QCOMPARE(box->itemText(0), QStringLiteral("Any source"));
        QCOMPARE(box->count(), 6);
        QCOMPARE(panel.matchCount(), int64_t(3)); // experiments' trials are not in the history
        panel.setSourceFilter(RunSource::Serve);
        QCOMPARE(box->currentText(), QStringLiteral("Served"));
        QCOMPARE(panel.visibleRuns(), std::vector<RunId>{ids[2]});
        panel.setSourceFilter(RunSource::Studio);
        QCOMPARE(panel.visibleRuns(), std::vector<RunId>{ids[1]});
        panel.setSourceFilter(RunSource::Eval); // asked for, they show
        QCOMPARE(panel.visibleRuns(), std::vector<RunId>{ids[3]});
        panel.setSourceFilter(RunSource::Rerun);
        QCOMPARE(panel.matchCount(), int64_t(0));
        panel.setSourceFilter(std::nullopt);
        QCOMPARE(panel.matchCount(), int64_t(3));
    }
};

QTEST_MAIN(TestRunHistoryPanel)
#include "tst_runhistorypanel.moc"
