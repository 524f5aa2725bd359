#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/experiment/SweepColumns.h"

#include <QAbstractTableModel>

namespace conclave::ui {

// An experiment's designs, one row each in spec order, with the figures core
// computed (ExperimentStats) written as the CLI writes them (ReportText).
// SortRole gives the number behind each cell, so a proxy sorts numerically.
// A sweep's parameters (SweepColumns) come right after the name, one column
// per swept PATH: `Column` names the figures, columnOf() where each is shown.
class DesignsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Design, Accuracy, Delta, WinsLossesTies, WallP50, WallP95, CostPerTrial, Calls, Failures, Columns };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit DesignsModel(QObject* parent = nullptr);

    // `sweep`: the designs' parameters, in the summary's design order; empty when the experiment is no sweep.
    void setSummary(ExperimentSummary summary, SweepColumns sweep = {});
    const ExperimentSummary& summary() const { return m_summary; }
    const SweepColumns& sweep() const { return m_sweep; }
    // The view column of a figure: after the sweep's columns, Design first.
    int columnOf(Column column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int parameters() const { return int(m_sweep.paths.size()); }
    // The figure a view column shows; -1 for a sweep parameter's column.
    int figureOf(int section) const;
    QVariant parameterSortValue(int row, int parameter) const;
    QString text(const DesignSummary& d, int column) const;
    QVariant sortValue(int row, int column) const;
    QVariant deltaColour(const DesignSummary& d) const;

    ExperimentSummary m_summary;
    SweepColumns m_sweep;
    std::vector<bool> m_numericParameter; // per path: every varied cell is a number, so it sorts as one
};

} // namespace conclave::ui
