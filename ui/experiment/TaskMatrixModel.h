#pragma once

#include "conclave/analysis/TaskMatrix.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QStringList>

#include <vector>

namespace conclave::ui {

// The task matrix as a table: a domain column (named on the first row of each
// domain's group), the task, then one column per design whose cell shows the
// outcome core's TaskMatrix gives it, coloured by outcome. Several seeds show
// as a fraction (correct of scored). The filter picks TaskMatrix's rows.
class TaskMatrixModel : public QAbstractTableModel {
    Q_OBJECT

public:
    static constexpr int FirstDesignColumn = 2;
    // The outcome of a design cell in words ("correct", "wrong", "failed", "mixed", "not run", "unscored").
    static constexpr int OutcomeRole = Qt::UserRole + 1;

    explicit TaskMatrixModel(QObject* parent = nullptr);

    void setMatrix(TaskMatrix matrix, QStringList designs, int baseline);
    void setFilter(TaskMatrix::Filter filter);
    TaskMatrix::Filter filter() const { return m_filter; }

    // The row's task, or nullptr; the cell of a design column, or nullptr.
    const TaskMatrixRow* row(int r) const;
    const TaskMatrixCell* cell(const QModelIndex& index) const;
    // -1 when the column is not a design's.
    int designOf(int column) const;
    QString designName(int design) const { return m_designs.value(design); }

    static QString outcomeWord(TaskMatrixCell::Outcome outcome);
    static QColor outcomeColour(TaskMatrixCell::Outcome outcome);
    static QString cellText(const TaskMatrixCell& cell);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant cellData(const TaskMatrixRow& row, const TaskMatrixCell& cell, int design, int role) const;

    TaskMatrix m_matrix;
    QStringList m_designs;
    int m_baseline = 0;
    TaskMatrix::Filter m_filter = TaskMatrix::Filter::All;
    std::vector<const TaskMatrixRow*> m_rows;
};

} // namespace conclave::ui
