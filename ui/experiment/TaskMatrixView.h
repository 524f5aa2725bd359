#pragma once

#include "experiment/TaskMatrixModel.h"

#include "conclave/store/StoredRun.h"

#include <QWidget>

#include <optional>
#include <utility>

class QComboBox;
class QMenu;
class QPushButton;
class QTableView;

namespace conclave::ui {

// The task matrix with its filter and its drill-down: a double-click on a
// design's cell asks for the run of its first seed, the cell's context menu
// lists every seed's run, and two cells of one task in different designs
// can be compared (the menu's Compare, or the button). It only emits; the
// window that holds it opens the runs.
class TaskMatrixView : public QWidget {
    Q_OBJECT

public:
    explicit TaskMatrixView(QWidget* parent = nullptr);

    TaskMatrixModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QComboBox* filterBox() const { return m_filter; }
    QPushButton* compareButton() const { return m_compare; }

    // The two runs the selection compares (left column first): two cells of
    // one row in different designs, on a seed both ran when there is one.
    std::optional<std::pair<RunId, RunId>> selectedPair() const;
    // The context menu of a cell: one "Open run of seed N" per seed, then Compare.
    void populateMenu(QMenu& menu, const QModelIndex& index);
    // Fits the columns to their contents once the model is filled.
    void fitColumns();

signals:
    void openRun(const conclave::RunId& id);
    void compareRuns(const conclave::RunId& a, const conclave::RunId& b);

private:
    void openCell(const QModelIndex& index);
    void compareSelected();
    void updateCompare();

    TaskMatrixModel* m_model;
    QComboBox* m_filter;
    QPushButton* m_compare;
    QTableView* m_table;
};

} // namespace conclave::ui
