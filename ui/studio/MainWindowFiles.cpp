// MainWindow: files (new, open, save, export, the unsaved-changes prompt) and
// the canvas edits that go through the clipboard.
#include "studio/MainWindow.h"

#include "studio/RecentFiles.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/TeamClipboard.h"
#include "editor/TeamScene.h"
#include "panels/TeamSettingsDialog.h"

#include "conclave/io/TeamFile.h"
#include "conclave/validate/ConnectionRules.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QStatusBar>
#include <QUndoStack>

namespace conclave::ui {

namespace {
const QString kFilter = QObject::tr("Teams (*.team.json);;JSON (*.json);;All files (*)");
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified() || !m_interactive)
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"), tr("%1 has unsaved changes. Save them?").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newDocument()
{
    if (!maybeSave())
        return;
    m_document->newTeam();
    m_view->setZoom(1.0);
    m_view->centreOn(QPointF(300, 150));
    statusBar()->showMessage(tr("New team"), 4000);
}

bool MainWindow::openFile(const QString& path, bool interactive)
{
    m_interactive = interactive;
    if (!maybeSave())
        return false;
    const QString error = m_document->load(path);
    if (!error.isEmpty()) {
        m_lastError = error;
        if (interactive)
            QMessageBox::warning(this, tr("Cannot open team"),
                                 tr("%1 was not opened:\n\n%2").arg(QFileInfo(path).fileName(), error));
        statusBar()->showMessage(tr("Cannot open %1: %2").arg(QFileInfo(path).fileName(), error.section('\n', 0, 0)));
        return false;
    }
    m_lastError.clear();
    m_recent->add(path);
    fitToTeam();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void MainWindow::openWithDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open team"), QString(), kFilter);
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::saveTo(const QString& path)
{
    const QString error = m_document->save(path);
    if (!error.isEmpty()) {
        m_lastError = error;
        if (m_interactive)
            QMessageBox::warning(this, tr("Cannot save"), error);
        statusBar()->showMessage(tr("Cannot save: %1").arg(error));
        return false;
    }
    m_recent->add(path);
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool MainWindow::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    return saveTo(m_document->filePath());
}

bool MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save team as"), m_document->filePath(), kFilter);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json")))
        path += QLatin1String(".team.json");
    return saveTo(path);
}

void MainWindow::exportJson()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Export team JSON"), QString(), kFilter);
    if (path.isEmpty())
        return;
    const QString error = m_document->exportTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot export"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::addNode(NodeKind kind, const QPointF* scenePos)
{
    QPointF at = scenePos ? *scenePos : m_view->visibleCentre();
    at -= QPointF(80, 28); // the node's centre where it was dropped
    const double g = TeamScene::kGrid;
    at = QPointF(std::round(at.x() / g) * g, std::round(at.y() / g) * g);
    if (const auto id = m_document->requestAddNode(kind, Position{at.x(), at.y()}))
        m_scene->selectNodes({*id});
}

void MainWindow::insertTemplate(const QString& path, const QPointF* scenePos)
{
    auto loaded = loadTeamFile(path.toStdString());
    if (!loaded.team) {
        statusBar()->showMessage(tr("Cannot read template %1").arg(QFileInfo(path).fileName()));
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
    fitToTeam();
}

void MainWindow::onPaletteEntry(const QString& entry, const QPointF* scenePos)
{
    if (entry.startsWith(QLatin1String("kind:"))) {
        if (const auto kind = enumFromString<NodeKind>(entry.mid(5).toStdString()))
            addNode(*kind, scenePos);
    } else if (entry.startsWith(QLatin1String("template:"))) {
        insertTemplate(entry.mid(9), scenePos);
    }
}

void MainWindow::copySelection()
{
    const auto nodes = m_scene->selectedNodes();
    if (nodes.empty())
        return;
    QApplication::clipboard()->setText(TeamClipboard::toText(TeamClipboard::fragment(m_document->team(), nodes)));
    statusBar()->showMessage(tr("Copied %n node(s) as team JSON", nullptr, int(nodes.size())), 4000);
}

void MainWindow::paste()
{
    QString error;
    const auto team = TeamClipboard::fromText(QApplication::clipboard()->text(), &error);
    if (!team) {
        statusBar()->showMessage(tr("Nothing to paste: the clipboard holds no team JSON (%1)").arg(error), 6000);
        return;
    }
    const auto ids = m_document->requestInsert(*team, Position{40, 40}, tr("Paste"));
    m_scene->selectNodes(ids);
}

void MainWindow::duplicateSelection()
{
    const auto nodes = m_scene->selectedNodes();
    if (nodes.empty())
        return;
    const auto ids = m_document->requestInsert(TeamClipboard::fragment(m_document->team(), nodes), Position{40, 40},
                                               tr("Duplicate"));
    m_scene->selectNodes(ids);
}

void MainWindow::deleteSelection()
{
    m_document->requestRemove(m_scene->selectedNodes(), m_scene->selectedEdges());
}

void MainWindow::editRouteLabel(size_t edge)
{
    const auto& edges = m_document->team().edges;
    if (edge >= edges.size())
        return;
    const Node* from = m_document->node(edges[edge].from);
    if (!from || from->kind != NodeKind::Router || edges[edge].isMember()) {
        statusBar()->showMessage(tr("Only a router's edges carry a route label"), 4000);
        return;
    }
    // Asked for only when the user asks: a broadcast router's edge fires anyway, a label just names it.
    const QString prompt = ConnectionRules::needsRouteLabel(*from)
                               ? tr("Fire this edge when the router picks:")
                               : tr("%1 fires every edge; a label only names the route (optional):")
                                     .arg(QString::fromStdString(from->id.str()));
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Route label"), prompt, QLineEdit::Normal,
                                               QString::fromStdString(edges[edge].when.value_or("")), &ok);
    if (ok)
        m_document->requestSetRouteLabel(
            edge, text.trimmed().isEmpty() ? std::nullopt : std::optional<std::string>(text.trimmed().toStdString()));
}

void MainWindow::editTeamSettings()
{
    TeamSettingsDialog dialog(TeamSettings::of(m_document->team()), this);
    if (dialog.exec() == QDialog::Accepted)
        m_document->requestSetSettings(dialog.settings());
}

} // namespace conclave::ui
