#pragma once

#include "conclave/model/StrongId.h"

#include <QList>
#include <QObject>

#include <cstddef>

class QAction;

namespace conclave::ui {

class CanvasView;
class TeamDocument;
class TeamScene;
class ThemeManager;

// The View menu's actions on the canvas: Zoom In, Zoom Out, Fit to Window,
// Actual Size, Snap to Grid, Auto Layout and the themes; and bringing a node
// or an edge into sight (from the problems, a timeline's bar).
class ViewActions : public QObject {
    Q_OBJECT

public:
    ViewActions(TeamDocument* document, TeamScene* scene, CanvasView* view, ThemeManager* themes, QObject* parent);

    // Follow System, Light, Dark: checkable, one checked, the current theme's.
    const QList<QAction*>& themeActions() const { return m_themeActions; }

    // Fits the canvas to the team.
    void fitToTeam();
    // Selects the node and centres the canvas on it.
    void focusNode(const NodeId& id);
    // Selects edge `index` (of the team's edges) and centres the canvas on it.
    void focusEdge(size_t index);

private:
    void buildThemeActions();

    TeamDocument* m_document;
    TeamScene* m_scene;
    CanvasView* m_view;
    ThemeManager* m_themes;
    QList<QAction*> m_themeActions;
};

} // namespace conclave::ui
