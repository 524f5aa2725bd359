#pragma once

#include "conclave/model/StrongId.h"

#include <QTreeWidget>

namespace conclave::ui {

class TeamDocument;

// Live validation: every problem of the document, errors first. Activating a
// problem (click) asks for its node to be selected and centred.
class ProblemsPanel : public QTreeWidget {
    Q_OBJECT

public:
    explicit ProblemsPanel(TeamDocument* document, QWidget* parent = nullptr);

    int errorCount() const { return m_errors; }
    int warningCount() const { return m_warnings; }

signals:
    void nodeActivated(const conclave::NodeId& id);
    void edgeActivated(size_t index);
    void countsChanged(int errors, int warnings);

private:
    void refresh();

    TeamDocument* m_document;
    int m_errors = 0;
    int m_warnings = 0;
};

} // namespace conclave::ui
