#pragma once

#include <QMainWindow>

class QListWidget;
class QTreeWidget;

namespace conclave::ui {

class TeamDocument;

// The studio's main window. For now: open a team and list its nodes and problems.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Opens a team file; on failure shows the loader's messages and keeps the current team.
    bool openFile(const QString& path, bool interactive = true);

private:
    void openWithDialog();
    void refresh();

    TeamDocument* m_document;
    QTreeWidget* m_nodes;
    QListWidget* m_problems;
};

} // namespace conclave::ui
