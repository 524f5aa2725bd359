#include "studio/FileActions.h"

#include "studio/RecentFiles.h"
#include "studio/StudioAction.h"
#include "studio/StudioFeedback.h"

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStyle>
#include <QWidget>

namespace conclave::ui {

namespace {
const QString kFilter = QObject::tr("Teams (*.team.json);;JSON (*.json);;All files (*)");
}

FileActions::FileActions(TeamDocument* document, CanvasView* view, StudioFeedback* feedback, QWidget* window)
    : QObject(window), m_document(document), m_view(view), m_feedback(feedback), m_window(window),
      m_recent(new RecentFiles(this))
{
    auto* s = window->style();
    makeStudioAction(this, "actionNew", tr("&New"), QKeySequence::New, &FileActions::newDocument)
        ->setIcon(s->standardIcon(QStyle::SP_FileIcon));
    makeStudioAction(this, "actionOpen", tr("&Open…"), QKeySequence::Open, &FileActions::openWithDialog)
        ->setIcon(s->standardIcon(QStyle::SP_DialogOpenButton));
    makeStudioAction(this, "actionSave", tr("&Save"), QKeySequence::Save, &FileActions::save)
        ->setIcon(s->standardIcon(QStyle::SP_DialogSaveButton));
    makeStudioAction(this, "actionSaveAs", tr("Save &As…"), QKeySequence::SaveAs, &FileActions::saveAs);
    makeStudioAction(this, "actionExport", tr("&Export JSON…"), QKeySequence(tr("Ctrl+E")), &FileActions::exportJson);
    auto* quit = makeStudioAction(this, "actionQuit", tr("&Quit"), QKeySequence::Quit);
    connect(quit, &QAction::triggered, window, &QWidget::close);
    connect(m_recent, &RecentFiles::openRequested, this, &FileActions::openRecent);
}

void FileActions::attachRecentMenu(QMenu* menu)
{
    m_recent->attach(menu);
}

bool FileActions::maybeSave()
{
    if (!m_document->isModified() || !m_feedback->isInteractive())
        return true;
    const auto answer = QMessageBox::warning(
        m_window, tr("Unsaved changes"), tr("%1 has unsaved changes. Save them?").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void FileActions::newDocument()
{
    if (!maybeSave())
        return;
    m_document->newTeam();
    m_view->setZoom(1.0);
    m_view->centreOn(QPointF(300, 150));
    m_feedback->showStatus(tr("New team"), StatusTimeouts::kEditNote);
}

bool FileActions::openFile(const QString& path, bool interactive)
{
    m_feedback->setInteractive(interactive);
    if (!maybeSave())
        return false;
    const QString error = m_document->load(path);
    if (!error.isEmpty()) {
        m_feedback->setLastError(error);
        if (interactive)
            QMessageBox::warning(m_window, tr("Cannot open team"),
                                 tr("%1 was not opened:\n\n%2").arg(QFileInfo(path).fileName(), error));
        m_feedback->showStatus(tr("Cannot open %1: %2").arg(QFileInfo(path).fileName(), error.section('\n', 0, 0)));
        return false;
    }
    m_feedback->setLastError({});
    m_recent->add(path);
    m_view->fitToTeam();
    m_feedback->showStatus(tr("Opened %1").arg(QDir::toNativeSeparators(path)), StatusTimeouts::kFileDone);
    return true;
}

void FileActions::openRecent(const QString& path)
{
    if (!openFile(path) && !QFileInfo::exists(path))
        m_recent->remove(path);
}

void FileActions::openWithDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open team"), QString(), kFilter);
    if (!path.isEmpty())
        openFile(path);
}

bool FileActions::saveTo(const QString& path)
{
    const QString error = m_document->save(path);
    if (!error.isEmpty()) {
        m_feedback->setLastError(error);
        if (m_feedback->isInteractive())
            QMessageBox::warning(m_window, tr("Cannot save"), error);
        m_feedback->showStatus(tr("Cannot save: %1").arg(error));
        return false;
    }
    m_recent->add(path);
    m_feedback->showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)), StatusTimeouts::kFileDone);
    return true;
}

bool FileActions::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    return saveTo(m_document->filePath());
}

bool FileActions::saveAs()
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save team as"), m_document->filePath(), kFilter);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json")))
        path += QLatin1String(".team.json");
    return saveTo(path);
}

void FileActions::exportJson()
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export team JSON"), QString(), kFilter);
    if (path.isEmpty())
        return;
    const QString error = m_document->exportTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Cannot export"), error);
    else
        m_feedback->showStatus(tr("Exported %1").arg(QDir::toNativeSeparators(path)), StatusTimeouts::kFileDone);
}

} // namespace conclave::ui
