#pragma once

#include <QWidget>

#include <cstddef>
#include <optional>

class QLabel;
class QLineEdit;

namespace conclave::ui {

class TeamDocument;

// The selected edge: its ends and kind, and a router edge's route label.
class EdgeForm : public QWidget {
    Q_OBJECT

public:
    explicit EdgeForm(TeamDocument* document, QWidget* parent = nullptr);

    void load(size_t index);
    std::optional<size_t> edgeIndex() const { return m_index; }
    QLineEdit* routeLabel() const { return m_when; }

private:
    TeamDocument* m_document;
    std::optional<size_t> m_index;
    QLabel* m_summary;
    QLineEdit* m_when;
};

} // namespace conclave::ui
