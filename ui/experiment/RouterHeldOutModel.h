#pragma once

#include "conclave/routing/RouterModel.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace conclave::ui {

// A trained router's models, one row each: its training answers and base
// rate, then how it did on the held-out tasks (answers, log loss, AUROC and
// the domain-only AUROC), with the texts `conclave train-router` prints
// (RouterTrainingText::figure: 3 decimals, "-" when not measured).
class RouterHeldOutModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { ModelColumn, AnswersColumn, BaseRateColumn, HeldOutColumn, LogLossColumn, AurocColumn, DomainColumn };

    explicit RouterHeldOutModel(QObject* parent = nullptr);

    // A copy of what is shown; no router: an empty table.
    void setRouter(const RouterModel* router);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<std::vector<QString>> m_cells;
};

} // namespace conclave::ui
