#pragma once

#include "conclave/analysis/ExperimentStats.h"

#include <QAbstractTableModel>

namespace conclave::ui {

// An experiment's designs, one row each in spec order, with the figures core
// computed (ExperimentStats) written as the CLI writes them (ReportText).
// SortRole gives the number behind each cell, so a proxy sorts numerically.
class DesignsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Design, Accuracy, Delta, WinsLossesTies, WallP50, WallP95, CostPerTrial, Calls, Failures, Columns };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit DesignsModel(QObject* parent = nullptr);

    void setSummary(ExperimentSummary summary);
    const ExperimentSummary& summary() const { return m_summary; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const DesignSummary& d, int column) const;
    QVariant sortValue(int row, int column) const;
    QVariant deltaColour(const DesignSummary& d) const;

    ExperimentSummary m_summary;
};

} // namespace conclave::ui
