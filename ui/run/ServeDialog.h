#pragma once

#include "conclave/serve/ServedRequest.h"
#include "conclave/store/StoredRun.h"

#include <QDialog>
#include <QString>

class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTreeWidget;

namespace conclave::ui {

class ServeController;

// Run > Serve This Team…: `conclave serve` for the open team, in a window of
// its own beside the studio. The port (0: any free one), an optional keys
// file (its errors inline, as core words them), Start/Stop; while serving,
// the endpoint's URL and `curl` and Python snippets with the real port and
// model id to copy; and the requests as their runs are stored, newest first
// (double-click opens the run).
//
// Promises: it asks for a start through startRequested() and shows what the
// ServeController says: its errors inline, never in a box or a crash; it
// never waits for the server. Closing it while serving stops the server and
// closes once the drain has ended.
class ServeDialog : public QDialog {
    Q_OBJECT

public:
    static constexpr int kMaxRows = 1000; // the oldest rows go past this

    explicit ServeDialog(ServeController* controller, QWidget* parent = nullptr);

    // The team Start serves, as the user sees it: its name, the model id it gets,
    // and whether it is served as it is on screen (unsaved edits, or never saved).
    void setOpenTeam(const QString& name, const QString& modelId, bool asOnScreen);
    // The user message the snippets send.
    void setSampleInput(const QString& input);
    // Reads the keys file (empty: none) and says what it holds, or why it cannot be used; false then.
    bool setKeysFile(const QString& path);
    // Start with the form (false, and why inline, when it cannot), or Stop.
    bool start();
    void stop();
    void done(int result) override;

    ServeController* controller() const { return m_controller; }
    QSpinBox* portBox() const { return m_port; }
    QLineEdit* keysFileEdit() const { return m_keysFile; }
    QLabel* keysNote() const { return m_keysNote; }
    QPushButton* startButton() const { return m_startStop; }
    QLabel* stateLabel() const { return m_state; }
    QLabel* errorLabel() const { return m_error; }
    QLineEdit* urlEdit() const { return m_url; }
    QPlainTextEdit* curlSnippet() const { return m_curl; }
    QPlainTextEdit* pythonSnippet() const { return m_python; }
    QTreeWidget* requestList() const { return m_requests; }

signals:
    void startRequested(quint16 port, const QString& keysFile);
    void openRunRequested(const conclave::RunId& id);

private:
    QWidget* buildForm();
    QGroupBox* buildEndpoint();
    QGroupBox* buildRequests();
    void chooseKeysFile();
    void onStarted();
    void onStopped(int cancelled);
    void onRequest(const conclave::ServedRequest& request);
    void showError(const QString& error);
    void updateSnippets();
    void updateControls();

    ServeController* m_controller;
    QString m_sampleInput;
    QLabel* m_team;
    QSpinBox* m_port;
    QLineEdit* m_keysFile;
    QPushButton* m_chooseKeys = nullptr;
    QPushButton* m_clearKeys = nullptr;
    QLabel* m_keysNote;
    QPushButton* m_startStop;
    QLabel* m_state;
    QLabel* m_error;
    QGroupBox* m_endpoint;
    QLineEdit* m_url;
    QTabWidget* m_snippets;
    QPlainTextEdit* m_curl;
    QPlainTextEdit* m_python;
    QTreeWidget* m_requests;
    QLabel* m_requestsNote; // in the list's place while it is empty
    QLabel* m_requestCount;
    int m_served = 0;
    bool m_closeWhenStopped = false;
};

} // namespace conclave::ui
