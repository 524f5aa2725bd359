#pragma once

#include <QObject>
#include <QString>

class QAction;
class QTimer;
class QWidget;

namespace conclave::ui {

class RunController;
class RunHistoryPanel;
class RunTabs;
class RunToolBar;
class ServeController;
class ServeDialog;
class StudioFeedback;
class TeamDocument;

// Run > Serve This Team…: one ServeController and its ServeDialog (made on
// first use) per main window. Start serves the document's team as it is then,
// as the model its file names (ServeController::modelIdOf); the snippets send
// the run toolbar's input. Each served run refreshes the run history (at most
// every kHistoryMs) and a double-clicked request opens its run tab.
class ServeActions : public QObject {
    Q_OBJECT

public:
    static constexpr int kHistoryMs = 300;

    // `window` parents the dialog.
    ServeActions(RunController* runs, TeamDocument* document, RunToolBar* bar, RunHistoryPanel* history, RunTabs* tabs,
                 StudioFeedback* feedback, QWidget* window);

    ServeController* controller() const { return m_controller; }
    bool isServing() const;
    ServeDialog* dialog();
    ServeDialog* showDialog();
    // Serves the open team on `port` (0: any free one) with the dialog's keys file; false and why in the dialog.
    bool startServing(quint16 port);

private:
    void offerOpenTeam();
    void start(quint16 port, const QString& keysFile);

    RunController* m_runs;
    TeamDocument* m_document;
    RunToolBar* m_bar;
    RunHistoryPanel* m_history;
    RunTabs* m_tabs;
    StudioFeedback* m_feedback;
    QWidget* m_window;
    ServeController* m_controller;
    ServeDialog* m_dialog = nullptr;
    QAction* m_serve = nullptr;
    QTimer* m_historyRefresh;
};

} // namespace conclave::ui
