#pragma once

#include "studio/StatusTimeouts.h"

#include <QObject>
#include <QString>

namespace conclave::ui {

// How the studio's controllers answer the user, shared by all of them: a
// status-bar message with its timeout (StatusTimeouts.h), whether they may ask
// or warn in a dialog (not when the studio runs headless, e.g. for a
// screenshot or a test), and the last error, for callers that see neither.
// It shows nothing itself: the window puts statusMessage on its status bar.
class StudioFeedback : public QObject {
    Q_OBJECT

public:
    explicit StudioFeedback(QObject* parent = nullptr);

    void showStatus(const QString& message, int timeoutMs = StatusTimeouts::kUntilReplaced);

    bool isInteractive() const { return m_interactive; }
    void setInteractive(bool interactive) { m_interactive = interactive; }

    const QString& lastError() const { return m_lastError; }
    void setLastError(const QString& error) { m_lastError = error; }

signals:
    void statusMessage(const QString& message, int timeoutMs);

private:
    QString m_lastError;
    bool m_interactive = true;
};

} // namespace conclave::ui
