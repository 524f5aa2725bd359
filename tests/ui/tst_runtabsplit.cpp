// The split between the canvas and the run tabs: the first tab gives the
// canvas its share (45% at first, never under a third nor over four fifths),
// a drag of the handle sets the share, resizes keep it, and the next first
// tab opens at the share the user left.
#include <QtTest>

#include "StudioRunRig.h"

#include "studio/RunTabs.h"

#include <QStandardPaths>

using namespace conclave;
using conclave::ui::RunTabs;

class TestRunTabSplit : public QObject {
    Q_OBJECT

private:
    StudioRunRig* m_rig = nullptr;
    RunId m_run;
    // A window as the studio's: a canvas above, the run tabs below.
    QWidget* m_window = nullptr;
    QSplitter* m_split = nullptr;
    RunTabs* m_tabs = nullptr;

    int panes() const { return m_split->height() - m_split->handleWidth(); }
    // The canvas's height once the splitter has laid out what was just shown.
    int canvasHeight() const
    {
        QApplication::processEvents();
        return m_split->sizes().at(0);
    }
    // What a drag of the handle to `canvas` pixels does.
    void drag(int canvas)
    {
        m_split->setSizes({canvas, panes() - canvas});
        QApplication::processEvents();
        emit m_split->splitterMoved(canvas, 1);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_rig = new StudioRunRig;
        const auto run = m_rig->run(StudioRunRig::kMathInput, 7);
        QVERIFY(run);
        m_run = *run;
        m_window = new QWidget;
        m_split = new QSplitter(Qt::Vertical, m_window);
        m_split->addWidget(new QWidget); // the canvas
        m_tabs = new RunTabs(&m_rig->runs, &m_rig->scene, &m_rig->states, m_rig->output, &m_rig->feedback, m_split,
                             m_window);
        m_split->resize(900, 1003);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window));
    }

    void cleanupTestCase()
    {
        delete m_window;
        delete m_rig;
    }

    void cleanup()
    {
        while (m_tabs->count() > 0)
            emit m_tabs->tabs()->tabCloseRequested(0);
    }

    void theFirstTabGivesTheCanvasItsShare()
    {
        QCOMPARE(m_tabs->canvasShare(), RunTabs::kDefaultCanvasShare);
        QVERIFY(m_tabs->openRunTab(m_run));
        QCOMPARE(canvasHeight(), qRound(panes() * 0.45));
        QCOMPARE(m_split->sizes().at(1), panes() - qRound(panes() * 0.45));
        // A second tab changes nothing.
        QVERIFY(m_tabs->openReplayTab(m_run));
        QCOMPARE(canvasHeight(), qRound(panes() * 0.45));
    }

    void theShareStaysWithinItsBounds()
    {
        QVERIFY(m_tabs->openRunTab(m_run));
        m_tabs->setCanvasShare(0.1);
        QCOMPARE(m_tabs->canvasShare(), 1.0 / 3.0);
        QCOMPARE(canvasHeight(), qRound(panes() / 3.0));
        m_tabs->setCanvasShare(0.95);
        QCOMPARE(m_tabs->canvasShare(), 0.8);
        QCOMPARE(canvasHeight(), qRound(panes() * 0.8));
        m_tabs->setCanvasShare(RunTabs::kDefaultCanvasShare);
    }

    void aDragSetsTheShareThatResizesKeepAndTheNextTabReuses()
    {
        QVERIFY(m_tabs->openRunTab(m_run));
        drag(600);
        QCOMPARE(m_tabs->canvasShare(), 600.0 / panes());
        QCOMPARE(canvasHeight(), 600);

        // A drag below a third springs back to a third.
        drag(100);
        QCOMPARE(m_tabs->canvasShare(), 1.0 / 3.0);
        QCOMPARE(canvasHeight(), qRound(panes() / 3.0));

        drag(600);
        const double share = m_tabs->canvasShare();
        m_split->resize(900, 703);
        QVERIFY2(std::abs(canvasHeight() - panes() * share) <= 2, qPrintable(QString::number(canvasHeight())));
        m_split->resize(900, 1003);

        cleanup(); // the last tab closed: the tabs hide
        QVERIFY(m_tabs->tabs()->isHidden());
        QVERIFY(m_tabs->openRunTab(m_run));
        QCOMPARE(canvasHeight(), qRound(panes() * share));
        m_tabs->setCanvasShare(RunTabs::kDefaultCanvasShare);
    }
};

QTEST_MAIN(TestRunTabSplit)
#include "tst_runtabsplit.moc"
