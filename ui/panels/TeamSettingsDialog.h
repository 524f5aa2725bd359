#pragma once

#include "document/TeamSettings.h"

#include <QDialog>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QTableWidget;
class QComboBox;

namespace conclave::ui {

// Edits a team's name, description, backends, defaults and budget. A backend
// names the environment variable that holds its API key; the key itself is
// never asked for or stored. Fields the dialog does not show (inline model
// profiles, headers, prices, unknown keys) are kept as they were.
class TeamSettingsDialog : public QDialog {
    Q_OBJECT

public:
    explicit TeamSettingsDialog(const TeamSettings& settings, QWidget* parent = nullptr);

    TeamSettings settings() const;
    QTableWidget* backendTable() const { return m_backends; }
    // Why the values cannot be accepted, or empty.
    QString problem() const;

private:
    void addBackendRow(const QString& name, const Backend& backend);
    void check();

    TeamSettings m_original;
    QLineEdit* m_name;
    QPlainTextEdit* m_description;
    QTableWidget* m_backends;
    QComboBox* m_defaultBackend;
    QLineEdit* m_defaultModel;
    QSpinBox* m_timeout;
    QSpinBox* m_retries;
    QDoubleSpinBox* m_maxCost;
    QSpinBox* m_maxTokens;
    QSpinBox* m_maxWall;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace conclave::ui
