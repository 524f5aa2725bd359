#pragma once

#include <QObject>
#include <QString>

class QMenu;
class QWidget;

namespace conclave::ui {

class CanvasView;
class RecentFiles;
class StudioFeedback;
class TeamDocument;

// The File menu's actions: New, Open…, Save, Save As…, Export JSON…, Quit,
// the recent files and the unsaved-changes prompt. Every file goes through the
// document (load, save, export); this class only asks for paths, reports the
// outcome through the StudioFeedback and keeps the recent files.
class FileActions : public QObject {
    Q_OBJECT

public:
    // `window` parents the dialogs; Quit closes it.
    FileActions(TeamDocument* document, CanvasView* view, StudioFeedback* feedback, QWidget* window);

    RecentFiles* recentFiles() const { return m_recent; }
    // Keeps `menu` listing the recent files; choosing one opens it.
    void attachRecentMenu(QMenu* menu);

    // Opens a team file; on failure shows the loader's messages (a dialog when
    // interactive) and keeps the current document untouched. `interactive`
    // also says whether later prompts and warnings may show dialogs.
    bool openFile(const QString& path, bool interactive = true);
    bool saveTo(const QString& path);
    void newDocument();
    // Asks whether to save unsaved changes: true when the caller may go on.
    bool maybeSave();
    bool save();
    bool saveAs();
    void exportJson();
    void openWithDialog();

private:
    void openRecent(const QString& path);

    TeamDocument* m_document;
    CanvasView* m_view;
    StudioFeedback* m_feedback;
    QWidget* m_window;
    RecentFiles* m_recent;
};

} // namespace conclave::ui
