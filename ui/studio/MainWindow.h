#pragma once

#include "conclave/model/NodeKind.h"
#include "conclave/model/StrongId.h"

#include <QMainWindow>

class QAction;
class QLabel;
class QTabWidget;

namespace conclave::ui {

class CanvasView;
class Inspector;
class Palette;
class ProblemsPanel;
class RecentFiles;
class TeamDocument;
class TeamScene;
class ThemeManager;

// The studio's main window: palette left, canvas centre (a tab area that the
// run views of issue 7 can join), inspector right, problems below. It wires
// widgets to the document and turns menu actions into document requests; it
// holds no team data of its own.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a team file; on failure shows the loader's messages (a dialog when
    // interactive) and keeps the current document untouched.
    bool openFile(const QString& path, bool interactive = true);
    bool saveTo(const QString& path);
    void newDocument();
    // Fits the canvas to the team (after the window has its final size).
    void fitToTeam();

    TeamDocument* document() const { return m_document; }
    TeamScene* scene() const { return m_scene; }
    CanvasView* canvas() const { return m_view; }
    Inspector* inspector() const { return m_inspector; }
    ProblemsPanel* problemsPanel() const { return m_problems; }
    ThemeManager* themes() const { return m_themes; }
    const QString& lastError() const { return m_lastError; }
    QAction* action(const QString& name) const;

    // Adds a node of `kind` at the centre of the view (or at `scenePos`) and selects it.
    void addNode(NodeKind kind, const QPointF* scenePos = nullptr);
    void insertTemplate(const QString& path, const QPointF* scenePos = nullptr);
    void copySelection();
    void paste();
    void duplicateSelection();
    void deleteSelection();
    void focusNode(const NodeId& id);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildDocks();
    void buildActions();
    void buildMenus();
    void buildStatusBar();
    void restoreSettings();
    void saveSettings() const;
    void updateTitle();
    void updateCounts();
    void onSelectionChanged();
    void onPaletteEntry(const QString& entry, const QPointF* scenePos);
    void editRouteLabel(size_t edge);
    void editTeamSettings();
    bool maybeSave();
    bool save();
    bool saveAs();
    void exportJson();
    void openWithDialog();
    QAction* makeAction(const QString& name, const QString& text, const QKeySequence& shortcut,
                        void (MainWindow::*slot)());

    TeamDocument* m_document;
    TeamScene* m_scene;
    CanvasView* m_view;
    QTabWidget* m_centre;
    Palette* m_palette;
    Inspector* m_inspector;
    ProblemsPanel* m_problems;
    ThemeManager* m_themes;
    RecentFiles* m_recent;
    QLabel* m_countsLabel;
    QLabel* m_problemsLabel;
    QLabel* m_zoomLabel;
    QString m_lastError;
    bool m_interactive = true;
};

} // namespace conclave::ui
