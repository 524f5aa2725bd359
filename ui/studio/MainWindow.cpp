#include "studio/MainWindow.h"

#include "studio/ThemeManager.h"
#include "timeline/TimeFormat.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/KindStyle.h"
#include "editor/TeamScene.h"
#include "experiment/ExperimentController.h"
#include "inspector/Inspector.h"
#include "panels/Palette.h"
#include "panels/ProblemsPanel.h"
#include "run/CanvasRunStates.h"
#include "run/ExperimentHistoryPanel.h"
#include "run/RunController.h"
#include "run/RunHistoryPanel.h"
#include "run/RunOutputPanel.h"
#include "run/RunToolBar.h"
#include "run/ServeController.h"
#include "search/SearchController.h"

#include "conclave/resources/LocalModelCatalog.h"
#include "conclave/resources/ResourceLocator.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>

namespace conclave::ui {

namespace {

// Adds the actions named in `names` to `widget` (a menu or a toolbar) in that order; "" is a separator.
template <typename Widget>
void addNamedActions(Widget* widget, const MainWindow& window, std::initializer_list<const char*> names)
{
    for (const char* name : names) {
        if (*name)
            widget->addAction(window.action(name));
        else
            widget->addSeparator();
    }
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_document(new TeamDocument(this)), m_scene(new TeamScene(m_document, this)),
      m_view(new CanvasView(m_scene)), m_centre(new QTabWidget(this)), m_palette(new Palette),
      m_inspector(new Inspector(m_document)), m_problems(new ProblemsPanel(m_document)),
      m_themes(new ThemeManager(this)), m_feedback(new StudioFeedback(this)), m_countsLabel(new QLabel),
      m_problemsLabel(new QLabel), m_zoomLabel(new QLabel)
{
    // 1280x800, or the screen's available area when that is smaller.
    QSize size(1280, 800);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size());
    resize(size);
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_centre->setDocumentMode(true);
    m_centre->setTabBarAutoHide(true);
    m_centre->addTab(m_view, tr("Design"));
    // The run views open below the canvas, so that a replay's states and a
    // clicked bar's node stay in sight.
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->addWidget(m_centre);
    setCentralWidget(m_split);

    if (const auto resources = findResourcesDir(QApplication::applicationFilePath().toStdString())) {
        m_palette->setTemplateFolder(QString::fromStdString((*resources / "examples").string()));
        const auto catalog = LocalModelCatalog::load(*resources / "models" / "local-models.json");
        if (catalog.catalog)
            m_document->setLocalModels(catalog.catalog->names());
    }

    connect(m_feedback, &StudioFeedback::statusMessage, this,
            [this](const QString& message, int timeoutMs) { statusBar()->showMessage(message, timeoutMs); });
    buildDocks();
    m_files = new FileActions(m_document, m_view, m_feedback, this);
    m_edits = new EditActions(m_document, m_scene, m_view, m_feedback, this);
    m_views = new ViewActions(m_document, m_scene, m_view, m_themes, this);
    buildRunUi();
    buildMenus();
    buildStatusBar();
    connectWidgets();

    restoreSettings();
    updateTitle();
    updateCounts();
    m_problems->countsChanged(m_problems->errorCount(), m_problems->warningCount());
    m_zoomLabel->setText(QStringLiteral("100%"));
    m_feedback->showStatus(tr("Drag a node from the palette, or open a team with Ctrl+O"));
}

MainWindow::~MainWindow()
{
    // The scene clears its selection while it is destroyed, after this
    // destructor: nothing of the window or its controllers may hear that.
    for (const QObject* listener : std::initializer_list<const QObject*>{this, m_feedback, m_edits, m_runTabs})
        m_scene->disconnect(listener);
}

QAction* MainWindow::action(const QString& name) const
{
    return findChild<QAction*>(name);
}

QDockWidget* MainWindow::addDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area)
{
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(widget);
    addDockWidget(area, d);
    return d;
}

void MainWindow::buildDocks()
{
    auto* palette = addDock(tr("Palette"), QStringLiteral("paletteDock"), m_palette, Qt::LeftDockWidgetArea);
    auto* inspector = addDock(tr("Inspector"), QStringLiteral("inspectorDock"), m_inspector, Qt::RightDockWidgetArea);
    auto* problems = addDock(tr("Problems"), QStringLiteral("problemsDock"), m_problems, Qt::BottomDockWidgetArea);
    resizeDocks({palette, inspector}, {190, 340}, Qt::Horizontal);
    resizeDocks({problems}, {110}, Qt::Vertical);
    m_palette->setMinimumWidth(150);
    m_inspector->setMinimumWidth(300);
}

void MainWindow::buildRunUi()
{
    const auto resources = findResourcesDir(QApplication::applicationFilePath().toStdString());
    m_runs = new RunController(resources.value_or(std::filesystem::path()), RunStore::resolvePath(std::nullopt), this);
    if (m_runs->resources().gate)
        m_inspector->setEngineResources(std::make_shared<const EngineResources>(m_runs->resources()),
                                        m_runs->resourcesDir());
    m_runStates = new CanvasRunStates(m_scene, m_runs, this);
    m_output = new RunOutputPanel(m_runs);
    m_history = new RunHistoryPanel(m_runs);
    m_experimentHistory = new ExperimentHistoryPanel(m_runs);
    m_runTabs = new RunTabs(m_runs, m_scene, m_runStates, m_output, m_feedback, m_split, this);

    addDock(tr("Run output"), QStringLiteral("runOutputDock"), m_output, Qt::RightDockWidgetArea);
    // The history dock: the runs, and the experiments.
    auto* historyTabs = new QTabWidget;
    historyTabs->setObjectName("historyTabs");
    historyTabs->setDocumentMode(true);
    historyTabs->addTab(m_history, tr("Runs"));
    historyTabs->addTab(m_experimentHistory, tr("Experiments"));
    auto* history = addDock(tr("Run history"), QStringLiteral("runHistoryDock"), historyTabs, Qt::BottomDockWidgetArea);
    if (auto* problems = findChild<QDockWidget*>(QStringLiteral("problemsDock")))
        tabifyDockWidget(problems, history);
    history->raise();
    resizeDocks({history}, {140}, Qt::Vertical);

    m_runBar = new RunToolBar(this);
    m_runActions = new RunActions(m_runs, m_document, m_runBar, m_history, m_runTabs, m_feedback, this);
    m_experiments =
        new ExperimentActions(m_runs, m_document, m_centre, m_runTabs, m_experimentHistory, m_feedback, this);
    m_whatIf = new WhatIfActions(m_runs, m_document, m_runTabs, m_feedback, this);
    m_search = new SearchActions(m_runs, m_document, m_centre, m_files, m_experiments, m_feedback, this);
    m_serve = new ServeActions(m_runs, m_document, m_runBar, m_history, m_runTabs, m_feedback, this);
    connect(m_serve->controller(), &ServeController::stopped, this, [this] {
        if (m_closeWhenServed)
            close();
    });
    connect(m_experiments, &ExperimentActions::whatIfRequested, m_whatIf, &WhatIfActions::openWhatIfTab);
    m_experimentHistory->refresh();
    connect(m_runTabs, &RunTabs::spanClicked, m_views, &ViewActions::focusNode);
    // The inspector's run line says what the output dock says of its node.
    connect(m_output, &RunOutputPanel::runLineChanged, m_inspector, &Inspector::setRunLine);
    connect(m_document, &TeamDocument::teamReset, m_runStates, &CanvasRunStates::clear);
}

void MainWindow::buildMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    addNamedActions(file, *this, {"actionNew", "actionOpen"});
    auto* recent = file->addMenu(tr("Open &Recent"));
    recent->setObjectName("menuRecent");
    m_files->attachRecentMenu(recent);
    addNamedActions(file, *this,
                    {"", "actionSave", "actionSaveAs", "actionExport", "", "actionTeamSettings", "", "actionQuit"});
    addNamedActions(menuBar()->addMenu(tr("&Edit")), *this,
                    {"actionUndo", "actionRedo", "", "actionCut", "actionCopy", "actionPaste", "actionDuplicate",
                     "actionDelete", "", "actionSelectAll"});
    auto* insert = menuBar()->addMenu(tr("&Insert"));
    for (const NodeKind kind : allValues<NodeKind>())
        insert->addAction(action(QStringLiteral("actionAdd") + KindStyle::title(kind)));
    auto* view = menuBar()->addMenu(tr("&View"));
    addNamedActions(view, *this,
                    {"actionZoomIn", "actionZoomOut", "actionFit", "actionActualSize", "", "actionSnapToGrid",
                     "actionAutoLayout", ""});
    view->addMenu(tr("&Theme"))->addActions(m_views->themeActions());
    view->addSeparator();
    auto* panels = view->addMenu(tr("&Panels"));
    for (auto* dock : findChildren<QDockWidget*>())
        panels->addAction(dock->toggleViewAction());

    auto* tools = addToolBar(tr("Main"));
    tools->setObjectName("mainToolBar");
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->setIconSize(QSize(18, 18));
    addNamedActions(
        tools, *this,
        {"actionNew", "actionOpen", "actionSave", "", "actionUndo", "actionRedo", "", "actionAutoLayout", "actionFit"});
    // File and undo buttons read by their icons (their names are in the tooltips), so both toolbars fit one
    // row of a 1280 px window; an action the icon theme has no icon for keeps its text.
    for (QAction* a : tools->actions()) {
        auto* button = qobject_cast<QToolButton*>(tools->widgetForAction(a));
        if (button && !a->icon().isNull())
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }

    auto* run = new QMenu(tr("&Run"), this);
    menuBar()->insertMenu(view->menuAction(), run); // after Insert, before View
    addNamedActions(run, *this,
                    {"actionRun", "actionStop", "actionReplay", "actionWhatIf", "", "actionEvaluate",
                     "actionTrainRouter", "actionSearchDesigns", "", "actionServe", "", "actionExportChart"});
    addToolBar(m_runBar); // after the main toolbar
}

void MainWindow::buildStatusBar()
{
    for (auto* label : {m_countsLabel, m_problemsLabel, m_zoomLabel}) {
        label->setContentsMargins(8, 0, 8, 0);
        statusBar()->addPermanentWidget(label);
    }
}

void MainWindow::connectWidgets()
{
    connect(m_document, &TeamDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &TeamDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &TeamDocument::settingsChanged, this, &MainWindow::updateTitle);
    connect(m_document, &TeamDocument::teamReset, this, &MainWindow::updateTitle);
    connect(m_document, &TeamDocument::teamReset, this, &MainWindow::updateCounts);
    connect(m_document, &TeamDocument::edgesChanged, this, &MainWindow::updateCounts);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &MainWindow::onSelectionChanged);
    connect(m_scene, &TeamScene::statusMessage, m_feedback,
            [this](const QString& m) { m_feedback->showStatus(m, StatusTimeouts::kCanvasGuide); });
    connect(m_scene, &TeamScene::edgeActivated, m_edits, &EditActions::editRouteLabel);
    connect(m_view, &CanvasView::zoomChanged, this,
            [this](double zoom) { m_zoomLabel->setText(QStringLiteral("%1%").arg(qRound(zoom * 100))); });
    connect(m_view, &CanvasView::paletteItemDropped, m_edits,
            [this](const QString& entry, const QPointF& at) { m_edits->addPaletteEntry(entry, &at); });
    connect(m_view, &CanvasView::filesDropped, m_files,
            [this](const QStringList& paths) { m_files->openFile(paths.first()); });
    connect(m_palette, &Palette::entryActivated, m_edits,
            [this](const QString& entry) { m_edits->addPaletteEntry(entry, nullptr); });
    connect(m_problems, &ProblemsPanel::nodeActivated, m_views, &ViewActions::focusNode);
    connect(m_problems, &ProblemsPanel::edgeActivated, m_views, &ViewActions::focusEdge);
    connect(m_problems, &ProblemsPanel::countsChanged, this, [this](int errors, int warnings) {
        m_problemsLabel->setText(errors + warnings == 0 ? tr("No problems")
                                                        : tr("%1 errors, %2 warnings").arg(errors).arg(warnings));
    });
    connect(m_inspector, &Inspector::teamSettingsRequested, m_edits, &EditActions::editTeamSettings);
}

bool MainWindow::setRunStore(const QString& file)
{
    if (m_experiments->controller()->isRunning() || m_search->controller()->isRunning() || m_serve->isServing() ||
        !m_runActions->setRunStore(file))
        return false;
    m_experimentHistory->refresh();
    return true;
}

void MainWindow::refreshHistory()
{
    m_runActions->refreshHistory();
    m_experimentHistory->refresh();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    m_runTabs->setCanvasShare(settings.value("window/canvasShare", RunTabs::kDefaultCanvasShare).toDouble());
    m_themes->setTheme(ThemeManager::fromName(settings.value("theme", "system").toString()));
    const bool snap = settings.value("canvas/snapToGrid", true).toBool();
    m_scene->setSnapToGrid(snap);
    if (auto* a = action("actionSnapToGrid"))
        a->setChecked(snap);
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("window/canvasShare", m_runTabs->canvasShare());
    settings.setValue("theme", ThemeManager::nameOf(m_themes->theme()));
    settings.setValue("canvas/snapToGrid", m_scene->snapToGrid());
}

void MainWindow::updateTitle()
{
    setWindowTitle(QStringLiteral("%1[*] — %2 - Conclave Studio")
                       .arg(QString::fromStdString(m_document->team().name), m_document->displayName()));
    setWindowModified(m_document->isModified());
}

void MainWindow::updateCounts()
{
    const auto& team = m_document->team();
    m_countsLabel->setText(TimeFormat::count(int64_t(team.nodes.size()), tr("node"), tr("nodes")) +
                           QStringLiteral(" · ") +
                           TimeFormat::count(int64_t(team.edges.size()), tr("edge"), tr("edges")));
}

void MainWindow::onSelectionChanged()
{
    const auto nodes = m_scene->selectedNodes();
    const auto edges = m_scene->selectedEdges();
    if (nodes.size() == 1 && edges.empty())
        m_inspector->showNode(nodes.front());
    else if (nodes.empty() && edges.size() == 1)
        m_inspector->showEdge(edges.front());
    else
        m_inspector->showTeam();
    if (nodes.size() + edges.size() > 1)
        m_feedback->showStatus(tr("%1 nodes and %2 edges selected").arg(nodes.size()).arg(edges.size()),
                               StatusTimeouts::kEditNote);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_closeWhenServed && !m_files->maybeSave()) {
        event->ignore();
        return;
    }
    if (m_serve->isServing()) { // drain first, off the GUI thread; the window closes when it has ended
        m_closeWhenServed = true;
        m_serve->controller()->stop();
        m_feedback->showStatus(
            tr("Stopping the server: runs in flight may finish for %1 s…").arg(ServeController::kDrainMs / 1000));
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    for (const auto& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            m_files->openFile(url.toLocalFile());
            break;
        }
    }
}

} // namespace conclave::ui
