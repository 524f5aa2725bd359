#pragma once

#include "conclave/experiment/FidelityReport.h"

#include <QAbstractTableModel>
#include <QColor>

namespace conclave::ui {

// The designs of a FidelityReport, one row each, in the columns and with the
// exact texts of `conclave fidelity` (FidelityReport::cells). A z whose
// prediction is outside 1.96 combined standard errors of the measurement
// (FidelityPrediction::within false) is marked: OutsideRole true, the
// warning colour behind it (over the theme's base, so its text stays
// readable in both themes) and a tooltip saying so. A missing prediction's
// cells tell why in their tooltip.
class FidelityTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Role { OutsideRole = Qt::UserRole + 1 };

    explicit FidelityTableModel(QObject* parent = nullptr);

    void setReport(const FidelityReport* report);

    // The amber of a cancelled run (StatusPalette): "look again", the same in both themes.
    static QColor warningColour();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // The prediction a z column belongs to, or none.
    const std::optional<FidelityPrediction>* prediction(const FidelityDesign& design, int column) const;

    const FidelityReport* m_report = nullptr;
    std::vector<std::vector<QString>> m_cells;
};

} // namespace conclave::ui
