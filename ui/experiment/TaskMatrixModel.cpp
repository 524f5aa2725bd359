#include "experiment/TaskMatrixModel.h"

#include "timeline/StatusPalette.h"

#include <QFont>

#include <utility>

namespace conclave::ui {

TaskMatrixModel::TaskMatrixModel(QObject* parent) : QAbstractTableModel(parent) {}

void TaskMatrixModel::setMatrix(TaskMatrix matrix, QStringList designs, int baseline)
{
    beginResetModel();
    m_matrix = std::move(matrix);
    m_designs = std::move(designs);
    m_baseline = baseline;
    m_rows = m_matrix.rows(m_filter);
    endResetModel();
}

void TaskMatrixModel::setFilter(TaskMatrix::Filter filter)
{
    beginResetModel();
    m_filter = filter;
    m_rows = m_matrix.rows(m_filter);
    endResetModel();
}

const TaskMatrixRow* TaskMatrixModel::row(int r) const
{
    return r >= 0 && size_t(r) < m_rows.size() ? m_rows[size_t(r)] : nullptr;
}

int TaskMatrixModel::designOf(int column) const
{
    const int design = column - FirstDesignColumn;
    return design >= 0 && design < m_designs.size() ? design : -1;
}

const TaskMatrixCell* TaskMatrixModel::cell(const QModelIndex& index) const
{
    const auto* r = index.isValid() ? row(index.row()) : nullptr;
    const int design = index.isValid() ? designOf(index.column()) : -1;
    return r && design >= 0 && size_t(design) < r->cells.size() ? &r->cells[size_t(design)] : nullptr;
}

QString TaskMatrixModel::outcomeWord(TaskMatrixCell::Outcome outcome)
{
    using O = TaskMatrixCell::Outcome;
    switch (outcome) {
    case O::NotRun:
        return tr("not run");
    case O::Correct:
        return tr("correct");
    case O::Wrong:
        return tr("wrong");
    case O::Failed:
        return tr("failed");
    case O::Mixed:
        return tr("mixed");
    case O::Unscored:
        return tr("unscored");
    }
    return {};
}

// The status colours, so an outcome reads like a run's status: a failed run
// is a failed span's red darkened, a wrong answer red, a mix the amber of a
// cancelled run, and what has no score the greys of queued and skipped spans.
QColor TaskMatrixModel::outcomeColour(TaskMatrixCell::Outcome outcome)
{
    using O = TaskMatrixCell::Outcome;
    switch (outcome) {
    case O::NotRun:
        return StatusPalette::color(Status::Skipped);
    case O::Correct:
        return StatusPalette::color(Status::Ok);
    case O::Wrong:
        return StatusPalette::color(Status::Failed);
    case O::Failed:
        return StatusPalette::color(Status::Timeout);
    case O::Mixed:
        return StatusPalette::color(Status::Cancelled);
    case O::Unscored:
        return StatusPalette::color(Status::Queued);
    }
    return {};
}

QString TaskMatrixModel::cellText(const TaskMatrixCell& cell)
{
    using O = TaskMatrixCell::Outcome;
    const auto outcome = cell.outcome();
    if (outcome == O::NotRun || outcome == O::Unscored || cell.trials == 1)
        return outcomeWord(outcome);
    const QString fraction = QStringLiteral("%1/%2").arg(cell.correct).arg(cell.scored());
    return outcome == O::Failed ? tr("%1 failed").arg(fraction) : fraction;
}

int TaskMatrixModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TaskMatrixModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : FirstDesignColumn + int(m_designs.size());
}

QVariant TaskMatrixModel::cellData(const TaskMatrixRow& row, const TaskMatrixCell& cell, int design, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        return cellText(cell);
    case OutcomeRole:
        return outcomeWord(cell.outcome());
    case Qt::TextAlignmentRole:
        return Qt::AlignCenter;
    case Qt::BackgroundRole: {
        QColor c = outcomeColour(cell.outcome());
        c.setAlpha(150); // over the theme's base, so the theme's text stays readable on it
        return c;
    }
    case Qt::FontRole: {
        if (!cell.regressed)
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ToolTipRole: {
        QString tip = tr("%1 on %2: %3 of %4 scored trials correct, %5 failed")
                          .arg(m_designs.value(design), QString::fromStdString(row.task))
                          .arg(cell.correct)
                          .arg(cell.scored())
                          .arg(cell.failed);
        if (cell.regressed)
            tip += tr("\nA regression against the baseline (%1)").arg(m_designs.value(m_baseline));
        if (!cell.runs.empty())
            tip += tr("\nDouble-click to open the run of seed %1").arg(cell.runs.front().first);
        return tip;
    }
    }
    return {};
}

QVariant TaskMatrixModel::data(const QModelIndex& index, int role) const
{
    const auto* r = index.isValid() ? row(index.row()) : nullptr;
    if (!r)
        return {};
    if (const auto* c = cell(index))
        return cellData(*r, *c, designOf(index.column()), role);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (index.column() == 1)
        return QString::fromStdString(r->task);
    // The domain names its group once, on the group's first row.
    const auto* above = row(index.row() - 1);
    if (role == Qt::DisplayRole && above && above->domain == r->domain)
        return {};
    return QString::fromStdString(r->domain);
}

QVariant TaskMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    if (section == 0)
        return tr("Domain");
    if (section == 1)
        return tr("Task");
    const int design = designOf(section);
    if (design < 0)
        return {};
    return design == m_baseline && role == Qt::DisplayRole ? tr("%1\n(baseline)").arg(m_designs[design])
                                                           : m_designs[design];
}

} // namespace conclave::ui
