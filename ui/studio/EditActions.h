#pragma once

#include "conclave/model/NodeKind.h"

#include <QObject>
#include <QPointF>

#include <cstddef>

class QAction;
class QKeySequence;
class QWidget;

namespace conclave::ui {

class CanvasView;
class StudioFeedback;
class TeamDocument;
class TeamScene;

// The Edit and Insert menus' actions: Undo, Redo, Cut, Copy, Paste,
// Duplicate, Delete, Select All, one Add action per node kind, Team
// Settings…, and the edits asked for elsewhere (a palette entry, a route
// label). Every edit is a document request; the canvas edits' shortcuts act
// while the canvas has focus, so that Delete, Ctrl+C and Ctrl+V keep working
// in the inspector's text fields.
class EditActions : public QObject {
    Q_OBJECT

public:
    // `window` parents the dialogs.
    EditActions(TeamDocument* document, TeamScene* scene, CanvasView* view, StudioFeedback* feedback, QWidget* window);

    // Adds a node of `kind` at the centre of the view (or at `scenePos`) and selects it.
    void addNode(NodeKind kind, const QPointF* scenePos = nullptr);
    void insertTemplate(const QString& path, const QPointF* scenePos = nullptr);
    // A palette entry ("kind:expert", "template:PATH") activated, or dropped at `scenePos`.
    void addPaletteEntry(const QString& entry, const QPointF* scenePos);
    void copySelection();
    void paste();
    void duplicateSelection();
    void deleteSelection();
    // Asks for the route label of edge `edge` (a router's edges only).
    void editRouteLabel(size_t edge);
    void editTeamSettings();

private:
    void buildCanvasActions();
    QAction* canvasAction(const char* name, const QString& text, const QKeySequence& key);

    TeamDocument* m_document;
    TeamScene* m_scene;
    CanvasView* m_view;
    StudioFeedback* m_feedback;
    QWidget* m_window;
};

} // namespace conclave::ui
