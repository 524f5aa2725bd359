#include "studio/RunTabs.h"

#include "studio/LiveRunTab.h"
#include "studio/ShortRunId.h"
#include "studio/StudioFeedback.h"
#include "timeline/TimeFormat.h"

#include "editor/TeamScene.h"
#include "run/CanvasRunStates.h"
#include "run/RunController.h"
#include "run/RunOutputPanel.h"
#include "timeline/ChartExport.h"
#include "timeline/CompareView.h"
#include "timeline/LatencyBoxPlot.h"
#include "timeline/ReplayView.h"
#include "timeline/RunView.h"
#include "timeline/TimelineView.h"

#include "conclave/analysis/RecentRuns.h"
#include "conclave/store/RunQueries.h"

#include <QSplitter>
#include <QTabWidget>

#include <algorithm>
#include <memory>
#include <utility>

namespace conclave::ui {

RunTabs::RunTabs(RunController* runs, TeamScene* scene, CanvasRunStates* states, RunOutputPanel* output,
                 StudioFeedback* feedback, QSplitter* split, QObject* parent)
    : QObject(parent), m_runs(runs), m_scene(scene), m_states(states), m_output(output), m_feedback(feedback),
      m_split(split), m_tabs(new QTabWidget)
{
    m_tabs->setObjectName("runTabs");
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->hide();
    m_split->addWidget(m_tabs);
    m_split->setChildrenCollapsible(false);
    // Only a drag of the handle emits this: the share becomes the user's.
    connect(m_split, &QSplitter::splitterMoved, this, [this] {
        const QList<int> sizes = m_split->sizes();
        if (sizes.size() == 2 && sizes[0] + sizes[1] > 0)
            m_canvasShare = std::clamp(double(sizes[0]) / (sizes[0] + sizes[1]), kMinCanvasShare, kMaxCanvasShare);
        applyCanvasShare();
    });
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &RunTabs::showSelectedNode);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &RunTabs::closeTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, &RunTabs::onCurrentChanged);
}

int RunTabs::count() const
{
    return m_tabs->count();
}

RunTabView RunTabs::current() const
{
    return RunTabView::of(m_tabs->currentWidget());
}

void RunTabs::addTab(QWidget* view, const QString& title, const QString& tip)
{
    const int index = m_tabs->addTab(view, title);
    m_tabs->setTabToolTip(index, tip);
    m_tabs->setCurrentIndex(index);
    if (m_tabs->isHidden()) {
        m_tabs->show();
        applyCanvasShare();
    }
    emit tabOpened();
}

void RunTabs::setCanvasShare(double share)
{
    m_canvasShare = std::clamp(share, kMinCanvasShare, kMaxCanvasShare);
    if (!m_tabs->isHidden())
        applyCanvasShare();
}

void RunTabs::applyCanvasShare()
{
    // Stretch factors in the same ratio keep the share as the window resizes
    // (a size policy's stretch holds at most 255).
    const int canvas = qRound(m_canvasShare * 200);
    m_split->setStretchFactor(0, canvas);
    m_split->setStretchFactor(1, 200 - canvas);
    const int total = std::max(m_split->height() - m_split->handleWidth(), 1);
    const int top = qRound(total * m_canvasShare);
    m_split->setSizes({top, total - top});
}

void RunTabs::closeTab(int index)
{
    QWidget* view = m_tabs->widget(index);
    if (m_live && m_live->view() == view)
        m_live->stop(); // the run goes on; its end opens nothing
    m_tabs->removeTab(index);
    view->deleteLater();
    if (m_tabs->count() == 0)
        m_tabs->hide();
}

void RunTabs::onCurrentChanged()
{
    emit currentTabChanged();
    const RunTabView tab = current();
    if (tab.replay)
        m_states->showStates(tab.replay->states());
    // The output dock shows the run of the current tab, else the live or last run: a run tab's
    // final results, a replay's at its playhead; a live tab's, the live run's as it streams.
    auto run = tab.model && !tab.live ? std::shared_ptr<const StoredRun>(tab.model, &tab.model->run()) : nullptr;
    if (tab.replay && run)
        m_output->showStoredRunAt(std::move(run), tab.replay->position());
    else
        m_output->showStoredRun(std::move(run));
}

void RunTabs::showSelectedNode()
{
    const auto nodes = m_scene->selectedNodes();
    if (nodes.size() != 1)
        return;
    m_output->showNode(nodes.front());
    if (auto* timeline = current().timeline)
        timeline->selectNode(nodes.front());
}

bool RunTabs::openRunTab(const RunId& id)
{
    QString error;
    auto run = m_runs->loadRun(id, true, &error);
    if (!run) {
        m_feedback->showStatus(tr("Cannot open run %1: %2").arg(shortRunId(id), error), StatusTimeouts::kRequestFailed);
        return false;
    }
    auto* view = new RunView;
    const QString tip = RunView::headerText(*run);
    view->setRun(std::move(*run));
    connect(view->timeline(), &TimelineView::spanClicked, this, &RunTabs::spanClicked);
    addTab(view, tr("Run %1").arg(shortRunId(id)), tip);
    if (const auto nodes = m_scene->selectedNodes(); nodes.size() == 1)
        view->timeline()->selectNode(nodes.front());
    return true;
}

bool RunTabs::openLiveTab(const RunId& id)
{
    const LiveRun* live = m_runs->liveRun();
    if (m_runs->clockKind() != ClockKind::Real || !live || live->id() != id)
        return false;
    delete m_live; // a run that never said it ended: its last frame stays
    auto* view = new RunView;
    connect(view->timeline(), &TimelineView::spanClicked, this, &RunTabs::spanClicked);
    m_live = new LiveRunTab(m_runs, id, view, this); // the first frame, before the tab is current
    addTab(view, tr("Run %1").arg(shortRunId(id)), RunView::headerText(live->snapshot(0)));
    if (const auto nodes = m_scene->selectedNodes(); nodes.size() == 1)
        view->timeline()->selectNode(nodes.front());
    return true;
}

bool RunTabs::finishRunTab(const RunId& id)
{
    bool ok = true;
    if (m_live && m_live->run() == id) {
        const std::unique_ptr<LiveRunTab> live(std::exchange(m_live, nullptr));
        live->stop();
        if (live->view() && m_tabs->indexOf(live->view()) >= 0) // else closed by the user
            ok = finishLiveView(live->view(), id);
    } else {
        ok = openRunTab(id);
    }
    if (const auto output = m_runs->outputNode(); output && m_scene->selectedNodes().size() != 1)
        m_output->showNode(*output);
    return ok;
}

bool RunTabs::finishLiveView(RunView* view, const RunId& id)
{
    QString error;
    auto run = m_runs->loadRun(id, true, &error);
    if (!run) {
        m_feedback->showStatus(tr("Cannot open run %1: %2").arg(shortRunId(id), error), StatusTimeouts::kRequestFailed);
        // The run as its events told it, ended: all but the streamed text.
        const LiveRun* events = m_runs->liveRun();
        if (!events || events->id() != id || !events->finished())
            return false;
        run = events->snapshot(0);
    }
    m_tabs->setTabToolTip(m_tabs->indexOf(view), RunView::headerText(*run));
    view->setRun(std::move(*run));
    if (const auto nodes = m_scene->selectedNodes(); nodes.size() == 1)
        view->timeline()->selectNode(nodes.front());
    if (m_tabs->currentWidget() == view)
        onCurrentChanged(); // the output dock: the stored run now
    return error.isEmpty();
}

bool RunTabs::openReplayTab(const RunId& id)
{
    QString error;
    auto run = m_runs->loadRun(id, true, &error); // with its text, for the output dock
    if (!run) {
        m_feedback->showStatus(tr("Cannot replay run %1: %2").arg(shortRunId(id), error),
                               StatusTimeouts::kRequestFailed);
        return false;
    }
    auto* view = new ReplayView;
    const QString tip = RunView::headerText(*run);
    view->setRun(std::move(*run));
    connect(view->timeline(), &TimelineView::spanClicked, this, &RunTabs::spanClicked);
    // The canvas shows each agent's state at the playhead while this tab is the current one,
    // and the output dock what the selected node had produced by then.
    connect(view->controller(), &ReplayController::statesChanged, this,
            [this, view](qint64 atUs, const NodeStates& states) {
                if (m_tabs->currentWidget() != view)
                    return;
                m_states->showStates(states);
                const auto model = view->timelineModel();
                m_output->showStoredRunAt(std::shared_ptr<const StoredRun>(model, &model->run()), atUs);
            });
    addTab(view, tr("Replay %1").arg(shortRunId(id)), tip);
    view->controller()->seek(0);
    return true;
}

bool RunTabs::openCompareTab(const RunId& a, const RunId& b)
{
    QString error;
    auto first = m_runs->loadRun(a, false, &error);
    auto second = first ? m_runs->loadRun(b, false, &error) : std::nullopt;
    if (!first || !second) {
        m_feedback->showStatus(tr("Cannot compare: %1").arg(error), StatusTimeouts::kRequestFailed);
        return false;
    }
    auto* view = new CompareView;
    view->setRuns(std::move(*first), std::move(*second));
    connect(view->timelineA(), &TimelineView::spanClicked, this, &RunTabs::spanClicked);
    connect(view->timelineB(), &TimelineView::spanClicked, this, &RunTabs::spanClicked);
    addTab(view, tr("Compare %1 · %2").arg(shortRunId(a), shortRunId(b)), {});
    return true;
}

bool RunTabs::openLatencyTab(const QString& team, int lastRuns)
{
    QString error;
    auto* store = m_runs->store(&error);
    std::string e;
    std::unique_ptr<RunQueries> queries;
    if (store)
        queries = store->reader(e);
    std::vector<StoredRun> runs;
    if (queries)
        runs = RecentRuns::lastFinished(*queries, team.toStdString(), lastRuns, e);
    if (!queries || !e.empty() || runs.empty()) {
        m_feedback->showStatus(tr("No latency plot for %1: %2")
                                   .arg(team, !e.empty()         ? QString::fromStdString(e)
                                              : !error.isEmpty() ? error
                                                                 : tr("no finished runs")),
                               StatusTimeouts::kRequestFailed);
        return false;
    }
    auto* view = new LatencyBoxPlot;
    view->setRuns(runs, tr("%1: latency per agent over its last %2")
                            .arg(team, TimeFormat::count(int64_t(runs.size()), tr("run"), tr("runs"))));
    addTab(view, tr("Latency · %1").arg(team), {});
    return true;
}

bool RunTabs::exportChartTo(const QString& path, QString* error)
{
    QWidget* chart = current().chart;
    if (!chart) {
        if (error)
            *error = tr("no run view is open");
        return false;
    }
    return ChartExport::save(*chart, path, error);
}

} // namespace conclave::ui
