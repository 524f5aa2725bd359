#pragma once

#include "conclave/model/Team.h"
#include "conclave/validate/Problem.h"

#include <QObject>
#include <QString>

#include <vector>

namespace conclave::ui {

// The team being edited: plain core data plus change notifications. Views
// observe it; they never hold team data of their own.
class TeamDocument : public QObject {
    Q_OBJECT

public:
    explicit TeamDocument(QObject* parent = nullptr);

    const Team& team() const { return m_team; }
    const QString& filePath() const { return m_filePath; }
    const std::vector<Problem>& problems() const { return m_problems; }

    // Loads a file. On failure returns the loader's messages, one per line,
    // and leaves the current team untouched.
    QString load(const QString& path);

signals:
    void teamReset();

private:
    Team m_team;
    QString m_filePath;
    std::vector<Problem> m_problems;
};

} // namespace conclave::ui
