#include "studio/EditActions.h"

#include "studio/StudioAction.h"
#include "studio/StudioFeedback.h"
#include "timeline/TimeFormat.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/KindStyle.h"
#include "editor/TeamClipboard.h"
#include "editor/TeamScene.h"
#include "panels/TeamSettingsDialog.h"

#include "conclave/io/TeamFile.h"
#include "conclave/validate/ConnectionRules.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QInputDialog>
#include <QStyle>
#include <QUndoStack>

#include <cmath>

namespace conclave::ui {

EditActions::EditActions(TeamDocument* document, TeamScene* scene, CanvasView* view, StudioFeedback* feedback,
                         QWidget* window)
    : QObject(window), m_document(document), m_scene(scene), m_view(view), m_feedback(feedback), m_window(window)
{
    auto* s = window->style();
    makeStudioAction(this, "actionTeamSettings", tr("&Team Settings…"), QKeySequence(tr("Ctrl+,")),
                     &EditActions::editTeamSettings);
    auto* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName("actionUndo");
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(s->standardIcon(QStyle::SP_ArrowBack));
    auto* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName("actionRedo");
    redo->setShortcuts({QKeySequence::Redo, QKeySequence(tr("Ctrl+Y"))});
    redo->setIcon(s->standardIcon(QStyle::SP_ArrowForward));
    buildCanvasActions();

    int n = 1;
    for (const NodeKind kind : allValues<NodeKind>()) {
        auto* add =
            makeStudioAction(this, QStringLiteral("actionAdd") + KindStyle::title(kind),
                             tr("Add %1").arg(KindStyle::title(kind)), QKeySequence(QStringLiteral("Alt+%1").arg(n++)));
        add->setIcon(KindStyle::icon(kind));
        connect(add, &QAction::triggered, this, [this, kind] { addNode(kind); });
    }
}

QAction* EditActions::canvasAction(const char* name, const QString& text, const QKeySequence& key)
{
    auto* a = makeStudioAction(this, name, text, key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_view->addAction(a);
    return a;
}

void EditActions::buildCanvasActions()
{
    connect(canvasAction("actionCut", tr("Cu&t"), QKeySequence::Cut), &QAction::triggered, this, [this] {
        copySelection();
        deleteSelection();
    });
    connect(canvasAction("actionCopy", tr("&Copy"), QKeySequence::Copy), &QAction::triggered, this,
            &EditActions::copySelection);
    connect(canvasAction("actionPaste", tr("&Paste"), QKeySequence::Paste), &QAction::triggered, this,
            &EditActions::paste);
    connect(canvasAction("actionDuplicate", tr("D&uplicate"), QKeySequence(tr("Ctrl+D"))), &QAction::triggered, this,
            &EditActions::duplicateSelection);
    auto* del = canvasAction("actionDelete", tr("&Delete"), QKeySequence::Delete);
    del->setShortcuts({QKeySequence::Delete, QKeySequence(Qt::Key_Backspace)});
    connect(del, &QAction::triggered, this, &EditActions::deleteSelection);
    connect(canvasAction("actionSelectAll", tr("Select &All"), QKeySequence::SelectAll), &QAction::triggered, this,
            [this] {
                for (auto* item : m_scene->items())
                    item->setSelected(item->flags() & QGraphicsItem::ItemIsSelectable);
            });
}

void EditActions::addNode(NodeKind kind, const QPointF* scenePos)
{
    QPointF at = scenePos ? *scenePos : m_view->visibleCentre();
    at -= QPointF(80, 28); // the node's centre where it was dropped
    const double g = TeamScene::kGrid;
    at = QPointF(std::round(at.x() / g) * g, std::round(at.y() / g) * g);
    if (const auto id = m_document->requestAddNode(kind, Position{at.x(), at.y()}))
        m_scene->selectNodes({*id});
}

void EditActions::insertTemplate(const QString& path, const QPointF* scenePos)
{
    auto loaded = loadTeamFile(path.toStdString());
    if (!loaded.team) {
        m_feedback->showStatus(tr("Cannot read template %1").arg(QFileInfo(path).fileName()));
        return;
    }
    // Place the template's top-left corner where it was dropped (or beside the team).
    double minX = 1e300;
    double minY = 1e300;
    for (const auto& n : loaded.team->nodes) {
        minX = std::min(minX, n.pos ? n.pos->x : 0.0);
        minY = std::min(minY, n.pos ? n.pos->y : 0.0);
    }
    QPointF at =
        scenePos ? *scenePos : QPointF(m_scene->itemsBoundingRect().left(), m_scene->itemsBoundingRect().bottom() + 80);
    if (m_document->team().nodes.empty() && !scenePos)
        at = QPointF(minX, minY);
    const auto ids = m_document->requestInsert(*loaded.team, Position{at.x() - minX, at.y() - minY},
                                               tr("Insert template %1").arg(QString::fromStdString(loaded.team->name)));
    m_scene->selectNodes(ids);
    m_view->fitToTeam();
}

void EditActions::addPaletteEntry(const QString& entry, const QPointF* scenePos)
{
    if (entry.startsWith(QLatin1String("kind:"))) {
        if (const auto kind = enumFromString<NodeKind>(entry.mid(5).toStdString()))
            addNode(*kind, scenePos);
    } else if (entry.startsWith(QLatin1String("template:"))) {
        insertTemplate(entry.mid(9), scenePos);
    }
}

void EditActions::copySelection()
{
    const auto nodes = m_scene->selectedNodes();
    if (nodes.empty())
        return;
    QApplication::clipboard()->setText(TeamClipboard::toText(TeamClipboard::fragment(m_document->team(), nodes)));
    m_feedback->showStatus(
        tr("Copied %1 as team JSON").arg(TimeFormat::count(int64_t(nodes.size()), tr("node"), tr("nodes"))),
        StatusTimeouts::kEditNote);
}

void EditActions::paste()
{
    QString error;
    const auto team = TeamClipboard::fromText(QApplication::clipboard()->text(), &error);
    if (!team) {
        m_feedback->showStatus(tr("Nothing to paste: the clipboard holds no team JSON (%1)").arg(error),
                               StatusTimeouts::kNeedsInput);
        return;
    }
    const auto ids = m_document->requestInsert(*team, Position{40, 40}, tr("Paste"));
    m_scene->selectNodes(ids);
}

void EditActions::duplicateSelection()
{
    const auto nodes = m_scene->selectedNodes();
    if (nodes.empty())
        return;
    const auto ids = m_document->requestInsert(TeamClipboard::fragment(m_document->team(), nodes), Position{40, 40},
                                               tr("Duplicate"));
    m_scene->selectNodes(ids);
}

void EditActions::deleteSelection()
{
    m_document->requestRemove(m_scene->selectedNodes(), m_scene->selectedEdges());
}

void EditActions::editRouteLabel(size_t edge)
{
    const auto& edges = m_document->team().edges;
    if (edge >= edges.size())
        return;
    const Node* from = m_document->node(edges[edge].from);
    if (!from || from->kind != NodeKind::Router || edges[edge].isMember()) {
        m_feedback->showStatus(tr("Only a router's edges carry a route label"), StatusTimeouts::kEditNote);
        return;
    }
    // Asked for only when the user asks: a broadcast router's edge fires anyway, a label just names it.
    const QString prompt = ConnectionRules::needsRouteLabel(*from)
                               ? tr("Fire this edge when the router picks:")
                               : tr("%1 fires every edge; a label only names the route (optional):")
                                     .arg(QString::fromStdString(from->id.str()));
    bool ok = false;
    const QString text = QInputDialog::getText(m_window, tr("Route label"), prompt, QLineEdit::Normal,
                                               QString::fromStdString(edges[edge].when.value_or("")), &ok);
    if (ok)
        m_document->requestSetRouteLabel(
            edge, text.trimmed().isEmpty() ? std::nullopt : std::optional<std::string>(text.trimmed().toStdString()));
}

void EditActions::editTeamSettings()
{
    TeamSettingsDialog dialog(TeamSettings::of(m_document->team()), m_window);
    if (dialog.exec() == QDialog::Accepted)
        m_document->requestSetSettings(dialog.settings());
}

} // namespace conclave::ui
