// The studio's What-if panel (WhatIfPanel, WhatIfController, WhatIfControls,
// SpeedupChart, WhatIfApply) on stored runs of teams whose walls are known by
// hand (the test models answer after exact latencies, as in tst_whatif): the
// projected wall as shown, the ghosted projection's bars, the chart's order,
// Apply for team fields only (with undo), and the coalescing of requests.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/WhatIfTeams.h"

#include "document/TeamDocument.h"
#include "timeline/TimelineView.h"
#include "whatif/SpeedupChart.h"
#include "whatif/WhatIfApply.h"
#include "whatif/WhatIfController.h"
#include "whatif/WhatIfControls.h"
#include "whatif/WhatIfPanel.h"

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QUndoStack>

#include <memory>

using namespace conclave;
using namespace enginetest;
using conclave::ui::TimelineModel;
using conclave::ui::WhatIfApply;
using conclave::ui::WhatIfController;
using conclave::ui::WhatIfPanel;

namespace {

// The projection's bar of `node` (its only one): {start, end} in µs, or {-1, -1}.
std::pair<int64_t, int64_t> barOf(const TimelineModel* model, const char* node)
{
    if (!model)
        return {-1, -1};
    const auto bars = model->barsOfNode(NodeId(node));
    if (bars.size() != 1)
        return {-1, -1};
    const auto& bar = model->bars()[size_t(bars.front())];
    return {bar.startUs, bar.endUs()};
}

} // namespace

class TestWhatIfPanel : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    EngineResources m_resources;
    QTemporaryDir m_dir;
    std::string m_db;
    std::optional<Team> m_team;
    RunId m_id;

    // Records `builder`'s team and opens a panel on the run (Apply into `document`, when given); waits until the
    // unchanged projection and the profile are shown.
    std::unique_ptr<WhatIfPanel> open(const TeamBuilder& builder, ui::TeamDocument* document = nullptr)
    {
        std::string problems;
        m_team = builder.build(problems);
        if (!m_team)
            return nullptr;
        RunResult original;
        m_id = m_h.record(m_db, *m_team, kMath, original);
        if (m_id.empty())
            return nullptr;
        auto panel =
            std::make_unique<WhatIfPanel>(new WhatIfController(m_resources, m_db), document, std::set<std::string>{});
        QSignalSpy shown(panel.get(), &WhatIfPanel::projectionShown);
        QSignalSpy profiled(panel->controller(), &WhatIfController::profiled);
        panel->resize(1200, 700);
        panel->show();
        panel->open(m_id.str());
        if (!shown.wait(20000) || (profiled.isEmpty() && !profiled.wait(20000)))
            return nullptr;
        return panel;
    }

    // Moves `slider` to `value` and waits for the projection it asks for.
    static bool move(WhatIfPanel& panel, QSlider* slider, int value)
    {
        if (!slider)
            return false;
        QSignalSpy shown(&panel, &WhatIfPanel::projectionShown);
        slider->setValue(value);
        return shown.wait(20000) && !panel.controller()->isBusy();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_h.init());
        std::vector<std::string> errors;
        m_resources = EngineResources::load(CONCLAVE_RESOURCES, errors);
        QVERIFY(errors.empty());
        m_db = m_dir.filePath("runs.sqlite").toStdString();
    }

    void theRunAsStoredIsTheFirstProjection()
    {
        const auto panel = open(chain());
        QVERIFY(panel);
        QVERIFY(panel->headerText().contains(q("of run " + m_id.str().substr(0, 12) + " (test)")));
        QCOMPARE(panel->wallText(), QString("Projected wall: 1.300 s → 1.300 s (saves 0.000 s, 0.0 %)"));
        QCOMPARE(panel->detailText(), QString("Projected critical path: in → a → b → out · decisions changed: none"));
        QCOMPARE(panel->callsText(), QString("A projection: 2 of 2 calls replayed, 0 simulated. The run's recorded "
                                             "calls on the simulated clock, not a new measurement."));
        QCOMPARE(barOf(panel->timeline()->model(), "a"), std::make_pair(int64_t(0), int64_t(1000000)));
        QCOMPARE(barOf(panel->timeline()->ghost(), "b"), std::make_pair(int64_t(1000000), int64_t(1300000)));
        QCOMPARE(panel->controls()->speedText(NodeId("a")), QString("as run"));
    }

    // Moving a's slider: the wall shown, the ghost's bars (the stored run's unchanged under them).
    void aSpeedSliderProjectsTheChain_data()
    {
        QTest::addColumn<int>("percent");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("wall");
        QTest::addColumn<qint64>("aEnd");
        QTest::addColumn<qint64>("bEnd");
        QTest::newRow("25 %") << 25 << "25 % faster"
                              << "Projected wall: 1.300 s → 1.050 s (saves 0.250 s, 19.2 %)" << qint64(750000)
                              << qint64(1050000);
        QTest::newRow("50 %") << 50 << "50 % faster"
                              << "Projected wall: 1.300 s → 0.800 s (saves 0.500 s, 38.5 %)" << qint64(500000)
                              << qint64(800000);
        QTest::newRow("instant") << 100 << "instant"
                                 << "Projected wall: 1.300 s → 0.300 s (saves 1.000 s, 76.9 %)" << qint64(0)
                                 << qint64(300000);
    }
    void aSpeedSliderProjectsTheChain()
    {
        QFETCH(int, percent);
        QFETCH(QString, label);
        QFETCH(QString, wall);
        QFETCH(qint64, aEnd);
        QFETCH(qint64, bEnd);
        const auto panel = open(chain());
        QVERIFY(panel);
        QVERIFY(move(*panel, panel->controls()->speedSlider(NodeId("a")), percent));
        QCOMPARE(panel->controls()->speedText(NodeId("a")), label);
        QCOMPARE(panel->wallText(), wall);
        QCOMPARE(panel->detailText(), QString("Projected critical path: in → a → b → out · decisions changed: none"));
        QVERIFY(panel->callsText().startsWith("A projection: 2 of 2 calls replayed, 0 simulated."));
        const auto* ghost = panel->timeline()->ghost();
        QVERIFY(ghost);
        QCOMPARE(barOf(ghost, "a"), std::make_pair(int64_t(0), int64_t(aEnd)));
        QCOMPARE(barOf(ghost, "b"), std::make_pair(int64_t(aEnd), int64_t(bEnd)));
        QCOMPARE(ghost->endUs(), int64_t(bEnd));
        QCOMPARE(barOf(panel->timeline()->model(), "b"), std::make_pair(int64_t(1000000), int64_t(1300000)));
        // The projection's critical path is flagged on the ghost.
        QVERIFY(ghost->bars()[size_t(ghost->barsOfNode(NodeId("a")).front())].flags & TimelineModel::Critical);
    }

    // The chain's profile (tst_whatif): a saves 0.5 s at 50 %, b 0.15 s.
    void theChartRanksAgentsBySavingAtHalf()
    {
        const auto panel = open(chain());
        QVERIFY(panel);
        QCOMPARE(panel->chart()->agents(), QStringList({"a", "b"}));
        QCOMPARE(panel->chart()->savedUs(), QList<qint64>({500000, 150000}));
        QVERIFY(panel->chart()->notes().startsWith(
            "out of 1.300 s, making a 50 % faster saves 0.500 s (38.5 %); b: 0.150 s\n"));
    }

    void aSpeedUpCannotBeApplied()
    {
        ui::TeamDocument document;
        const auto panel = open(chain(), &document);
        QVERIFY(panel);
        document.setTeam(*m_team, "chain.team.json");
        QVERIFY(!panel->applyButton()->isEnabled());
        QCOMPARE(panel->applyButton()->toolTip(),
                 QString("Nothing to apply: pick a model or a number of calls at once"));
        QVERIFY(move(*panel, panel->controls()->speedSlider(NodeId("a")), 50));
        QVERIFY(!panel->applyButton()->isEnabled());
        QCOMPARE(panel->applyButton()->toolTip(), QString("a speed-up is not a team setting: pick a model to try it"));
    }

    // More calls at once is a team field: Apply writes it into the open team, one undo step.
    void aConcurrencyChangeIsAppliedWithUndo()
    {
        ui::TeamDocument document;
        const auto panel = open(queued(), &document);
        QVERIFY(panel);
        document.setTeam(*m_team, "queued.team.json");
        const Team before = document.team();
        QCOMPARE(panel->controls()->concurrencyText(BackendName("local")), QString("1 at once (as run)"));
        QVERIFY(move(*panel, panel->controls()->concurrencySlider(BackendName("local")), 2));
        QCOMPARE(panel->controls()->concurrencyText(BackendName("local")), QString("2 at once"));
        QCOMPARE(panel->wallText(), QString("Projected wall: 0.900 s → 0.600 s (saves 0.300 s, 33.3 %)"));
        QVERIFY(panel->callsText().startsWith("A projection: 3 of 3 calls replayed, 0 simulated."));
        QVERIFY(panel->chart()->notes().contains("backend local: max_concurrency 1 → 2 saves 0.300 s (33.3 %)"));
        QVERIFY(panel->applyButton()->isEnabled());
        QCOMPARE(panel->applyButton()->toolTip(),
                 QString("Set in the open team (one undo step): local: max_concurrency 2"));
        const int steps = document.undoStack()->count();
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        QCOMPARE(document.team().backends.at(BackendName("local")).maxConcurrency, std::optional<int64_t>(2));
        QCOMPARE(document.undoStack()->count(), steps + 1);
        QVERIFY(!panel->applyButton()->isEnabled());
        QCOMPARE(panel->applyButton()->toolTip(), QString("The open team already has these settings"));
        document.undoStack()->undo();
        QCOMPARE(document.team().backends.at(BackendName("local")).maxConcurrency, std::optional<int64_t>(1));
        QVERIFY(document.team() == before);
        QVERIFY(panel->applyButton()->isEnabled());
        document.undoStack()->redo();
        QCOMPARE(document.team().backends.at(BackendName("local")).maxConcurrency, std::optional<int64_t>(2));
    }

    // Another model is a team field too: its calls are the simulator's, and Apply writes it with undo.
    void aModelSwapIsAppliedWithUndo()
    {
        ui::TeamDocument document;
        const auto panel = open(chain(), &document);
        QVERIFY(panel);
        document.setTeam(*m_team, "chain.team.json");
        const Team before = document.team();
        QComboBox* box = panel->controls()->modelBox(NodeId("b"));
        QVERIFY(box);
        QCOMPARE(box->currentText(), QString("right-300"));
        QVERIFY(box->findText("right-100") >= 0);
        QSignalSpy shown(panel.get(), &WhatIfPanel::projectionShown);
        box->setCurrentText("right-100");
        QVERIFY(shown.wait(20000));
        // b's call is no longer the run's: the simulator answers it, after right-100's exact 100 ms.
        QCOMPARE(panel->wallText(), QString("Projected wall: 1.300 s → 1.100 s (saves 0.200 s, 15.4 %)"));
        QVERIFY2(panel->callsText().startsWith("A projection: 1 of 2 calls replayed, 1 simulated."),
                 qPrintable(panel->callsText()));
        QVERIFY(panel->applyButton()->isEnabled());
        QCOMPARE(panel->applyButton()->toolTip(), QString("Set in the open team (one undo step): b: model right-100"));
        QTest::mouseClick(panel->applyButton(), Qt::LeftButton);
        QCOMPARE(document.node(NodeId("b"))->config.call.model, std::optional<std::string>("right-100"));
        QCOMPARE(document.undoStack()->count(), 1);
        document.undoStack()->undo();
        QVERIFY(document.team() == before);
    }

    void anotherOpenTeamCannotBeApplied()
    {
        ui::TeamDocument document;
        const auto panel = open(queued(), &document);
        QVERIFY(panel);
        Team other = *m_team;
        other.name = "other";
        document.setTeam(other, "other.team.json");
        QVERIFY(move(*panel, panel->controls()->concurrencySlider(BackendName("local")), 3));
        QCOMPARE(panel->wallText(), QString("Projected wall: 0.900 s → 0.300 s (saves 0.600 s, 66.7 %)"));
        QVERIFY(!panel->applyButton()->isEnabled());
        QCOMPARE(panel->applyButton()->toolTip(),
                 QString("The run's team (test) is not the team open in the editor: open it to apply"));
    }

    // Requests made while one is projected replace each other; only the newest is answered.
    void requestsAreCoalesced()
    {
        std::string problems;
        const auto team = chain().build(problems);
        QVERIFY(team);
        RunResult original;
        const RunId id = m_h.record(m_db, *team, kMath, original);
        WhatIfController controller(m_resources, m_db);
        QSignalSpy loaded(&controller, &WhatIfController::loaded);
        QSignalSpy projected(&controller, &WhatIfController::projected);
        controller.load(id.str());
        QVERIFY(loaded.wait(20000));
        QCOMPARE(loaded.first().at(0).toBool(), true);
        uint64_t last = 0;
        for (int percent = 5; percent <= 100; percent += 5) {
            WhatIfChanges changes;
            changes.speeds.set(NodeId("a"), LatencyChange::faster(percent));
            last = controller.request(changes);
        }
        QCOMPARE(last, uint64_t(20));
        QVERIFY(projected.wait(20000));
        QTest::qWait(300);
        QCOMPARE(projected.count(), 1);
        QCOMPARE(controller.current()->request, last);
        QCOMPARE(controller.current()->report.wallAfter, int64_t(300000));
        QVERIFY(!controller.isBusy());
    }
};

QTEST_MAIN(TestWhatIfPanel)
#include "tst_whatifpanel.moc"
