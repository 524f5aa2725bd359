#include "studio/MainWindow.h"

#include "studio/RecentFiles.h"
#include "studio/ThemeManager.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/EdgeItem.h"
#include "editor/NodeItem.h"
#include "editor/TeamScene.h"
#include "inspector/Inspector.h"
#include "panels/Palette.h"
#include "panels/ProblemsPanel.h"

#include "conclave/resources/LocalModelCatalog.h"
#include "conclave/resources/ResourceLocator.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QUndoStack>

namespace conclave::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_document(new TeamDocument(this)), m_scene(new TeamScene(m_document, this)),
      m_view(new CanvasView(m_scene)), m_centre(new QTabWidget(this)), m_palette(new Palette),
      m_inspector(new Inspector(m_document)), m_problems(new ProblemsPanel(m_document)),
      m_themes(new ThemeManager(this)), m_recent(new RecentFiles(this)), m_countsLabel(new QLabel),
      m_problemsLabel(new QLabel), m_zoomLabel(new QLabel)
{
    resize(1280, 800);
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

    buildDocks();
    buildActions();
    buildRunUi();
    buildMenus();
    buildRunMenu();
    buildStatusBar();

    connect(m_document, &TeamDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &TeamDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &TeamDocument::settingsChanged, this, &MainWindow::updateTitle);
    connect(m_document, &TeamDocument::teamReset, this, &MainWindow::updateTitle);
    connect(m_document, &TeamDocument::teamReset, this, &MainWindow::updateCounts);
    connect(m_document, &TeamDocument::edgesChanged, this, &MainWindow::updateCounts);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &MainWindow::onSelectionChanged);
    connect(m_scene, &TeamScene::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    connect(m_scene, &TeamScene::edgeActivated, this, &MainWindow::editRouteLabel);
    connect(m_view, &CanvasView::zoomChanged, this,
            [this](double zoom) { m_zoomLabel->setText(QStringLiteral("%1%").arg(qRound(zoom * 100))); });
    connect(m_view, &CanvasView::paletteItemDropped, this,
            [this](const QString& entry, const QPointF& at) { onPaletteEntry(entry, &at); });
    connect(m_view, &CanvasView::filesDropped, this, [this](const QStringList& paths) { openFile(paths.first()); });
    connect(m_palette, &Palette::entryActivated, this,
            [this](const QString& entry) { onPaletteEntry(entry, nullptr); });
    connect(m_problems, &ProblemsPanel::nodeActivated, this, &MainWindow::focusNode);
    connect(m_problems, &ProblemsPanel::edgeActivated, this, [this](size_t index) {
        m_scene->clearSelection();
        if (index < m_scene->edgeItems().size()) {
            m_scene->edgeItems()[index]->setSelected(true);
            m_view->centreOn(m_scene->edgeItems()[index]->sceneBoundingRect().center());
        }
    });
    connect(m_problems, &ProblemsPanel::countsChanged, this, [this](int errors, int warnings) {
        m_problemsLabel->setText(errors + warnings == 0 ? tr("No problems")
                                                        : tr("%1 errors, %2 warnings").arg(errors).arg(warnings));
    });
    connect(m_inspector, &Inspector::teamSettingsRequested, this, &MainWindow::editTeamSettings);
    connect(m_recent, &RecentFiles::openRequested, this, [this](const QString& path) {
        if (!openFile(path) && !QFileInfo::exists(path))
            m_recent->remove(path);
    });

    restoreSettings();
    updateTitle();
    updateCounts();
    m_problems->countsChanged(m_problems->errorCount(), m_problems->warningCount());
    m_zoomLabel->setText(QStringLiteral("100%"));
    statusBar()->showMessage(tr("Drag a node from the palette, or open a team with Ctrl+O"));
}

MainWindow::~MainWindow()
{
    // The scene clears its selection while it is destroyed, after this
    // destructor: nothing of the window may hear that.
    m_scene->disconnect(this);
}

void MainWindow::buildDocks()
{
    const auto dock = [this](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };
    dock(tr("Palette"), QStringLiteral("paletteDock"), m_palette, Qt::LeftDockWidgetArea);
    auto* inspector = dock(tr("Inspector"), QStringLiteral("inspectorDock"), m_inspector, Qt::RightDockWidgetArea);
    auto* problems = dock(tr("Problems"), QStringLiteral("problemsDock"), m_problems, Qt::BottomDockWidgetArea);
    auto* palette = findChild<QDockWidget*>(QStringLiteral("paletteDock"));
    resizeDocks({palette, inspector}, {190, 340}, Qt::Horizontal);
    resizeDocks({problems}, {110}, Qt::Vertical);
    m_palette->setMinimumWidth(150);
    m_inspector->setMinimumWidth(300);
}

void MainWindow::buildStatusBar()
{
    for (auto* label : {m_countsLabel, m_problemsLabel, m_zoomLabel}) {
        label->setContentsMargins(8, 0, 8, 0);
        statusBar()->addPermanentWidget(label);
    }
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
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
    m_countsLabel->setText(tr("%n node(s)", nullptr, int(team.nodes.size())) + QStringLiteral(" · ") +
                           tr("%n edge(s)", nullptr, int(team.edges.size())));
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
        statusBar()->showMessage(tr("%1 nodes and %2 edges selected").arg(nodes.size()).arg(edges.size()), 4000);
}

void MainWindow::focusNode(const NodeId& id)
{
    auto* item = m_scene->nodeItem(id);
    if (!item)
        return;
    m_scene->selectNodes({id});
    m_view->centreOn(item->sceneBoundingRect().center());
}

void MainWindow::fitToTeam()
{
    m_view->fitToTeam();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
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
            openFile(url.toLocalFile());
            break;
        }
    }
}

} // namespace conclave::ui
