#include "experiment/DesignsModel.h"

#include "timeline/StatusPalette.h"

#include "conclave/experiment/ReportText.h"
#include "conclave/util/MoneyText.h"

#include <QFont>

#include <limits>
#include <utility>

namespace conclave::ui {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

DesignsModel::DesignsModel(QObject* parent) : QAbstractTableModel(parent) {}

void DesignsModel::setSummary(ExperimentSummary summary, SweepColumns sweep)
{
    beginResetModel();
    m_summary = std::move(summary);
    m_sweep = std::move(sweep);
    m_numericParameter.assign(m_sweep.paths.size(), true);
    for (const auto& cells : m_sweep.cells)
        for (size_t p = 0; p < cells.size() && p < m_numericParameter.size(); ++p) {
            bool number = false;
            q(cells[p]).toDouble(&number);
            if (cells[p] != "-" && !number)
                m_numericParameter[p] = false;
        }
    endResetModel();
}

int DesignsModel::columnOf(Column column) const
{
    return column == Design ? 0 : int(column) + parameters();
}

int DesignsModel::figureOf(int section) const
{
    if (section <= 0)
        return section;
    return section <= parameters() ? -1 : section - parameters();
}

// Numbers by value with the designs that do not vary the field first; text columns by text.
QVariant DesignsModel::parameterSortValue(int row, int parameter) const
{
    const auto cells = m_sweep.row(size_t(row));
    const std::string& cell = cells[size_t(parameter)];
    if (!m_numericParameter[size_t(parameter)])
        return q(cell);
    return cell == "-" ? -std::numeric_limits<double>::infinity() : q(cell).toDouble();
}

int DesignsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_summary.designs.size());
}

int DesignsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : Columns + parameters();
}

QString DesignsModel::text(const DesignSummary& d, int column) const
{
    switch (column) {
    case Design:
        return q(d.name);
    case Accuracy:
        return q(ReportText::percent(d.overall.accuracy) + " " + ReportText::ciText(d.overall.ci));
    case Delta:
        return q(ReportText::delta(d));
    case WinsLossesTies:
        return q(ReportText::wins(d));
    case WallP50:
        return q(ReportText::duration(d.wallMs.p50));
    case WallP95:
        return q(ReportText::duration(d.wallMs.p95));
    case CostPerTrial:
        return q(moneyText(d.meanCostUsd));
    case Calls:
        return q(ReportText::fixed("%.1f", d.meanCalls));
    case Failures:
        return QString::number(d.failed);
    }
    return {};
}

QVariant DesignsModel::sortValue(int row, int column) const
{
    const auto& d = m_summary.designs[size_t(row)];
    switch (column) {
    case Design:
        return row;
    case Accuracy:
        return d.overall.accuracy;
    case Delta:
        return d.vsBaseline ? d.vsBaseline->accuracyDelta : 0.0;
    case WinsLossesTies:
        return d.vsBaseline ? double(d.vsBaseline->wins - d.vsBaseline->losses) : 0.0;
    case WallP50:
        return d.wallMs.p50;
    case WallP95:
        return d.wallMs.p95;
    case CostPerTrial:
        return d.meanCostUsd;
    case Calls:
        return d.meanCalls;
    case Failures:
        return qlonglong(d.failed);
    }
    return {};
}

// Green or red only when core says the interval excludes 0: otherwise the difference may be noise.
QVariant DesignsModel::deltaColour(const DesignSummary& d) const
{
    if (!d.vsBaseline)
        return {};
    switch (d.vsBaseline->significance()) {
    case Significance::Better:
        return StatusPalette::color(Status::Ok);
    case Significance::Worse:
        return StatusPalette::color(Status::Failed);
    case Significance::NotShown:
        return {};
    }
    return {};
}

QVariant DesignsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto& d = m_summary.designs[size_t(index.row())];
    const bool baseline = index.row() == m_summary.baseline;
    const int column = figureOf(index.column());
    if (column < 0) {
        const int parameter = index.column() - 1;
        switch (role) {
        case Qt::DisplayRole:
            return q(m_sweep.row(size_t(index.row()))[size_t(parameter)]);
        case SortRole:
            return parameterSortValue(index.row(), parameter);
        case Qt::TextAlignmentRole:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    }
    switch (role) {
    case Qt::DisplayRole:
        return text(d, column);
    case SortRole:
        return sortValue(index.row(), column);
    case Qt::ForegroundRole:
        return column == Delta ? deltaColour(d) : QVariant();
    case Qt::TextAlignmentRole:
        return column == Design ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole: {
        if (!baseline)
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ToolTipRole: {
        if (column == Design)
            return baseline ? tr("%1 (the baseline)").arg(q(d.name)) : q(d.name);
        if (!d.vsBaseline || (column != Delta && column != WinsLossesTies))
            return {};
        const auto& v = *d.vsBaseline;
        return tr("%1 tasks below the baseline; over the %2 (task, seed) pairs both ran, cost %3, p50 wall %4 the "
                  "baseline's")
            .arg(v.regressions)
            .arg(v.pairs)
            .arg(q(ReportText::ratio(v.costRatio)), q(ReportText::ratio(v.wallP50Ratio)));
    }
    }
    return {};
}

QVariant DesignsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0)
        return {};
    const int parameter = section - 1;
    section = figureOf(section);
    if (section < 0) {
        if (role == Qt::DisplayRole)
            return q(m_sweep.paths[size_t(parameter)]);
        if (role == Qt::ToolTipRole)
            return tr("The swept field %1: each variant's value (- for a design that does not vary it)")
                .arg(q(m_sweep.paths[size_t(parameter)]));
        return {};
    }
    if (role == Qt::ToolTipRole && section == WinsLossesTies)
        return tr("Wins, losses and ties against the baseline, over (task, seed) pairs");
    if (role == Qt::ToolTipRole && section == Accuracy)
        return tr("Accuracy with its 95 % confidence interval");
    if (role == Qt::ToolTipRole && section == Delta)
        return tr("The accuracy difference against the baseline with its 95 % confidence interval: better or worse "
                  "only when the interval excludes 0");
    if (role != Qt::DisplayRole)
        return {};
    static const char* names[] = {
        "Design", "Accuracy [95% CI]", "Δ vs baseline [95% CI]", "W/L/T", "p50 wall", "p95 wall", "Cost/trial",
        "Calls",  "Failures"};
    return section >= 0 && section < Columns ? tr(names[section]) : QVariant();
}

} // namespace conclave::ui
