#pragma once

#include "conclave/search/SearchSpace.h"

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace conclave::ui {

// A design search's space as a table: one `--vary` flag per row (a checkbox,
// the field's PATH, its values in SweepSpec's grammar, how many there are),
// filled from a proposal (core's SpaceProposal) and edited in place; rows can
// be added and removed, and a proposal restored.
//
// Promises: flags() are the checked rows' `PATH=VALUES`, in row order; the
// table is checked against its bases after every edit with core's
// SearchSpace::fromFlags, whose error shows below it word for word, its row
// (the checked row it names, /parameters/N) marked; space() is that space,
// unset while there is an error. Nothing is rewritten: a value stays as typed.
class SpaceTable : public QWidget {
    Q_OBJECT

public:
    enum Column { PathColumn, ValuesColumn, CountColumn };

    explicit SpaceTable(QWidget* parent = nullptr);

    // The teams the space is checked against (the open team).
    void setBases(std::vector<SearchBase> bases);
    // Rows for `flags`, all checked; they are also what Reset restores.
    void setProposal(const std::vector<std::string>& flags);
    std::vector<std::string> flags() const;
    // Whether the rows differ from the proposal (an edit, a row added, removed or unchecked).
    bool edited() const { return flags() != m_proposal; }
    // Checks the table now (edits check it at once too).
    void check();
    const std::optional<SearchSpace>& space() const { return m_space; }
    // SearchSpace's error, as it says it; empty when the space is valid.
    const QString& error() const { return m_error; }
    // The row the error names; -1 when none.
    int errorRow() const { return m_errorRow; }
    void addRow(const QString& path = {}, const QString& values = {});

    QTableWidget* table() const { return m_table; }
    QLabel* errorLabel() const { return m_errorLabel; }
    QLabel* sizeLabel() const { return m_size; }
    QPushButton* addButton() const { return m_add; }
    QPushButton* removeButton() const { return m_remove; }
    QPushButton* resetButton() const { return m_reset; }

signals:
    // After every check: valid or not.
    void changed();

private:
    void removeSelected();
    void showRowState(int row, bool wrong);

    QTableWidget* m_table;
    QLabel* m_errorLabel;
    QLabel* m_size;
    QPushButton* m_add;
    QPushButton* m_remove;
    QPushButton* m_reset;
    std::vector<SearchBase> m_bases;
    std::vector<std::string> m_proposal;
    std::optional<SearchSpace> m_space;
    QString m_error;
    int m_errorRow = -1;
    bool m_filling = false;
};

} // namespace conclave::ui
