#include "studio/ViewActions.h"

#include "studio/StudioAction.h"
#include "studio/ThemeManager.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/EdgeItem.h"
#include "editor/NodeItem.h"
#include "editor/TeamScene.h"

#include <QActionGroup>

namespace conclave::ui {

ViewActions::ViewActions(TeamDocument* document, TeamScene* scene, CanvasView* view, ThemeManager* themes,
                         QObject* parent)
    : QObject(parent), m_document(document), m_scene(scene), m_view(view), m_themes(themes)
{
    auto* zoomIn = makeStudioAction(this, "actionZoomIn", tr("Zoom &In"), QKeySequence::ZoomIn);
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(tr("Ctrl+="))});
    connect(zoomIn, &QAction::triggered, this, [this] { m_view->zoomBy(1.25); });
    auto* zoomOut = makeStudioAction(this, "actionZoomOut", tr("Zoom &Out"), QKeySequence::ZoomOut);
    connect(zoomOut, &QAction::triggered, this, [this] { m_view->zoomBy(0.8); });
    makeStudioAction(this, "actionFit", tr("&Fit to Window"), QKeySequence(tr("Ctrl+0")), &ViewActions::fitToTeam);
    auto* actual = makeStudioAction(this, "actionActualSize", tr("&Actual Size"), QKeySequence(tr("Ctrl+1")));
    connect(actual, &QAction::triggered, this, [this] { m_view->setZoom(1.0); });
    auto* snap = makeStudioAction(this, "actionSnapToGrid", tr("&Snap to Grid"), QKeySequence(tr("Ctrl+G")));
    snap->setCheckable(true);
    snap->setChecked(true);
    connect(snap, &QAction::toggled, this, [this](bool on) { m_scene->setSnapToGrid(on); });
    auto* layout = makeStudioAction(this, "actionAutoLayout", tr("Auto &Layout"), QKeySequence(tr("Ctrl+L")));
    connect(layout, &QAction::triggered, this, [this] {
        if (m_document->requestAutoLayout())
            fitToTeam();
    });
    buildThemeActions();
}

void ViewActions::buildThemeActions()
{
    auto* group = new QActionGroup(this);
    for (const auto t : {ThemeManager::Theme::System, ThemeManager::Theme::Light, ThemeManager::Theme::Dark}) {
        const QString label = t == ThemeManager::Theme::System  ? tr("Follow &System")
                              : t == ThemeManager::Theme::Light ? tr("&Light")
                                                                : tr("&Dark");
        auto* a = new QAction(label, this);
        a->setObjectName(QStringLiteral("actionTheme_") + ThemeManager::nameOf(t));
        a->setCheckable(true);
        a->setChecked(m_themes->theme() == t);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, t] { m_themes->setTheme(t); });
        m_themeActions.append(a);
    }
    connect(m_themes, &ThemeManager::themeChanged, this, [this](ThemeManager::Theme t) {
        for (auto* a : std::as_const(m_themeActions)) {
            if (a->objectName() == QStringLiteral("actionTheme_") + ThemeManager::nameOf(t))
                a->setChecked(true);
        }
        m_scene->update();
        m_view->viewport()->update();
    });
}

void ViewActions::fitToTeam()
{
    m_view->fitToTeam();
}

void ViewActions::focusNode(const NodeId& id)
{
    auto* item = m_scene->nodeItem(id);
    if (!item)
        return;
    m_scene->selectNodes({id});
    m_view->centreOn(item->sceneBoundingRect().center());
}

void ViewActions::focusEdge(size_t index)
{
    m_scene->clearSelection();
    if (index < m_scene->edgeItems().size()) {
        m_scene->edgeItems()[index]->setSelected(true);
        m_view->centreOn(m_scene->edgeItems()[index]->sceneBoundingRect().center());
    }
}

} // namespace conclave::ui
