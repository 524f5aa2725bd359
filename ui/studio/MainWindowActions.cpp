// MainWindow: actions, menus, the toolbar and their shortcuts.
#include "studio/MainWindow.h"

#include "studio/RecentFiles.h"
#include "studio/ThemeManager.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/KindStyle.h"
#include "editor/TeamScene.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

namespace conclave::ui {

QAction* MainWindow::action(const QString& name) const
{
    return findChild<QAction*>(name);
}

QAction* MainWindow::makeAction(const QString& name, const QString& text, const QKeySequence& shortcut,
                                void (MainWindow::*slot)())
{
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    a->setShortcut(shortcut);
    if (!shortcut.isEmpty())
        a->setToolTip(
            QStringLiteral("%1 (%2)").arg(QString(text).remove('&'), shortcut.toString(QKeySequence::NativeText)));
    if (slot)
        connect(a, &QAction::triggered, this, slot);
    return a;
}

void MainWindow::buildActions()
{
    auto* s = style();
    makeAction("actionNew", tr("&New"), QKeySequence::New, &MainWindow::newDocument)
        ->setIcon(s->standardIcon(QStyle::SP_FileIcon));
    makeAction("actionOpen", tr("&Open…"), QKeySequence::Open, &MainWindow::openWithDialog)
        ->setIcon(s->standardIcon(QStyle::SP_DialogOpenButton));
    auto* save = makeAction("actionSave", tr("&Save"), QKeySequence::Save, nullptr);
    save->setIcon(s->standardIcon(QStyle::SP_DialogSaveButton));
    connect(save, &QAction::triggered, this, [this] { this->save(); });
    auto* saveAs = makeAction("actionSaveAs", tr("Save &As…"), QKeySequence::SaveAs, nullptr);
    connect(saveAs, &QAction::triggered, this, [this] { this->saveAs(); });
    makeAction("actionExport", tr("&Export JSON…"), QKeySequence(tr("Ctrl+E")), &MainWindow::exportJson);
    makeAction("actionTeamSettings", tr("&Team Settings…"), QKeySequence(tr("Ctrl+,")), &MainWindow::editTeamSettings);
    auto* quit = makeAction("actionQuit", tr("&Quit"), QKeySequence::Quit, nullptr);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    auto* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName("actionUndo");
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(s->standardIcon(QStyle::SP_ArrowBack));
    auto* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName("actionRedo");
    redo->setShortcuts({QKeySequence::Redo, QKeySequence(tr("Ctrl+Y"))});
    redo->setIcon(s->standardIcon(QStyle::SP_ArrowForward));

    // Canvas edits: their shortcuts act while the canvas has focus, so that
    // Delete, Ctrl+C and Ctrl+V keep working in the inspector's text fields.
    const auto canvasAction = [this](const char* name, const QString& text, const QKeySequence& key,
                                     void (MainWindow::*slot)()) {
        auto* a = makeAction(name, text, key, slot);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_view->addAction(a);
        return a;
    };
    auto* cut = canvasAction("actionCut", tr("Cu&t"), QKeySequence::Cut, nullptr);
    connect(cut, &QAction::triggered, this, [this] {
        copySelection();
        deleteSelection();
    });
    canvasAction("actionCopy", tr("&Copy"), QKeySequence::Copy, &MainWindow::copySelection);
    canvasAction("actionPaste", tr("&Paste"), QKeySequence::Paste, &MainWindow::paste);
    canvasAction("actionDuplicate", tr("D&uplicate"), QKeySequence(tr("Ctrl+D")), &MainWindow::duplicateSelection);
    auto* del = canvasAction("actionDelete", tr("&Delete"), QKeySequence::Delete, &MainWindow::deleteSelection);
    del->setShortcuts({QKeySequence::Delete, QKeySequence(Qt::Key_Backspace)});
    auto* all = canvasAction("actionSelectAll", tr("Select &All"), QKeySequence::SelectAll, nullptr);
    connect(all, &QAction::triggered, this, [this] {
        for (auto* item : m_scene->items())
            item->setSelected(item->flags() & QGraphicsItem::ItemIsSelectable);
    });

    auto* zoomIn = makeAction("actionZoomIn", tr("Zoom &In"), QKeySequence::ZoomIn, nullptr);
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+="))});
    connect(zoomIn, &QAction::triggered, this, [this] { m_view->zoomBy(1.25); });
    auto* zoomOut = makeAction("actionZoomOut", tr("Zoom &Out"), QKeySequence::ZoomOut, nullptr);
    connect(zoomOut, &QAction::triggered, this, [this] { m_view->zoomBy(0.8); });
    makeAction("actionFit", tr("&Fit to Window"), QKeySequence(tr("Ctrl+0")), &MainWindow::fitToTeam);
    auto* actual = makeAction("actionActualSize", tr("&Actual Size"), QKeySequence(tr("Ctrl+1")), nullptr);
    connect(actual, &QAction::triggered, this, [this] { m_view->setZoom(1.0); });
    auto* snap = makeAction("actionSnapToGrid", tr("&Snap to Grid"), QKeySequence(tr("Ctrl+G")), nullptr);
    snap->setCheckable(true);
    snap->setChecked(true);
    connect(snap, &QAction::toggled, this, [this](bool on) { m_scene->setSnapToGrid(on); });
    auto* layout = makeAction("actionAutoLayout", tr("Auto &Layout"), QKeySequence(tr("Ctrl+L")), nullptr);
    connect(layout, &QAction::triggered, this, [this] {
        if (m_document->requestAutoLayout())
            fitToTeam();
    });

    int n = 1;
    for (const NodeKind kind : allValues<NodeKind>()) {
        auto* add =
            makeAction(QStringLiteral("actionAdd") + KindStyle::title(kind), tr("Add %1").arg(KindStyle::title(kind)),
                       QKeySequence(QStringLiteral("Alt+%1").arg(n++)), nullptr);
        add->setIcon(KindStyle::icon(kind));
        connect(add, &QAction::triggered, this, [this, kind] { addNode(kind); });
    }
}

void MainWindow::buildMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(action("actionNew"));
    file->addAction(action("actionOpen"));
    auto* recent = file->addMenu(tr("Open &Recent"));
    recent->setObjectName("menuRecent");
    m_recent->attach(recent);
    file->addSeparator();
    file->addAction(action("actionSave"));
    file->addAction(action("actionSaveAs"));
    file->addAction(action("actionExport"));
    file->addSeparator();
    file->addAction(action("actionTeamSettings"));
    file->addSeparator();
    file->addAction(action("actionQuit"));

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    for (const char* name : {"actionUndo", "actionRedo", "", "actionCut", "actionCopy", "actionPaste",
                             "actionDuplicate", "actionDelete", "", "actionSelectAll"}) {
        if (*name)
            edit->addAction(action(name));
        else
            edit->addSeparator();
    }

    auto* insert = menuBar()->addMenu(tr("&Insert"));
    for (const NodeKind kind : allValues<NodeKind>())
        insert->addAction(action(QStringLiteral("actionAdd") + KindStyle::title(kind)));

    auto* view = menuBar()->addMenu(tr("&View"));
    for (const char* name : {"actionZoomIn", "actionZoomOut", "actionFit", "actionActualSize", "", "actionSnapToGrid",
                             "actionAutoLayout"}) {
        if (*name)
            view->addAction(action(name));
        else
            view->addSeparator();
    }
    view->addSeparator();
    auto* theme = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(this);
    for (const auto t : {ThemeManager::Theme::System, ThemeManager::Theme::Light, ThemeManager::Theme::Dark}) {
        const QString label = t == ThemeManager::Theme::System  ? tr("Follow &System")
                              : t == ThemeManager::Theme::Light ? tr("&Light")
                                                                : tr("&Dark");
        auto* a = theme->addAction(label);
        a->setObjectName(QStringLiteral("actionTheme_") + ThemeManager::nameOf(t));
        a->setCheckable(true);
        a->setChecked(m_themes->theme() == t);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, t] { m_themes->setTheme(t); });
    }
    connect(m_themes, &ThemeManager::themeChanged, this, [this](ThemeManager::Theme t) {
        if (auto* a = action(QStringLiteral("actionTheme_") + ThemeManager::nameOf(t)))
            a->setChecked(true);
        m_scene->update();
        m_view->viewport()->update();
    });
    view->addSeparator();
    auto* panels = view->addMenu(tr("&Panels"));
    for (auto* dock : findChildren<QDockWidget*>())
        panels->addAction(dock->toggleViewAction());

    auto* tools = addToolBar(tr("Main"));
    tools->setObjectName("mainToolBar");
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->setIconSize(QSize(18, 18));
    for (const char* name : {"actionNew", "actionOpen", "actionSave", "", "actionUndo", "actionRedo", "",
                             "actionAutoLayout", "actionFit"}) {
        if (*name)
            tools->addAction(action(name));
        else
            tools->addSeparator();
    }
}

} // namespace conclave::ui
