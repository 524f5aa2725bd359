#include "experiment/RouterHeldOutModel.h"

#include "conclave/experiment/RouterTrainingText.h"

namespace conclave::ui {

namespace {
constexpr int kColumns = RouterHeldOutModel::DomainColumn + 1;

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}
} // namespace

RouterHeldOutModel::RouterHeldOutModel(QObject* parent) : QAbstractTableModel(parent) {}

void RouterHeldOutModel::setRouter(const RouterModel* router)
{
    beginResetModel();
    m_cells.clear();
    for (size_t m = 0; router && m < router->models.size(); ++m) {
        const RouterModel::HeldOut* h = m < router->heldout.size() ? &router->heldout[m] : nullptr;
        const auto figure = [h](std::optional<double> RouterModel::HeldOut::*field) {
            return text(RouterTrainingText::figure(h ? h->*field : std::nullopt));
        };
        m_cells.push_back({text(router->models[m]), QString::number(router->answers[m]),
                           text(RouterTrainingText::figure(router->baseRates[m])),
                           h ? QString::number(h->answers) : QStringLiteral("-"),
                           figure(&RouterModel::HeldOut::logLoss), figure(&RouterModel::HeldOut::auroc),
                           figure(&RouterModel::HeldOut::domainAuroc)});
    }
    endResetModel();
}

int RouterHeldOutModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_cells.size());
}

int RouterHeldOutModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kColumns;
}

QVariant RouterHeldOutModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= kColumns)
        return {};
    if (role == Qt::DisplayRole)
        return m_cells[size_t(index.row())][size_t(index.column())];
    if (role == Qt::TextAlignmentRole && index.column() != ModelColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RouterHeldOutModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= kColumns)
        return {};
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case ModelColumn:
            return tr("Model");
        case AnswersColumn:
            return tr("Training answers");
        case BaseRateColumn:
            return tr("Base rate");
        case HeldOutColumn:
            return tr("Held-out answers");
        case LogLossColumn:
            return tr("Held-out log loss");
        case AurocColumn:
            return tr("AUROC");
        case DomainColumn:
            return tr("Domain-only AUROC");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case ModelColumn:
            return tr("A candidate model the router predicts for");
        case AnswersColumn:
            return tr("Its answers the router was trained on");
        case BaseRateColumn:
            return tr("Its share of right answers among them");
        case HeldOutColumn:
            return tr("Its answers to the held-out tasks, never trained on");
        case LogLossColumn:
            return tr("Mean −ln p of the held-out outcomes: lower is better");
        case AurocColumn:
            return tr("How well the router's p separates its right held-out answers from its wrong ones (0.5: "
                      "chance)");
        case DomainColumn:
            return tr("The same with the gate's domain weights as the only features: what the prompt adds is the "
                      "difference");
        }
    }
    if (role == Qt::TextAlignmentRole && section != ModelColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

} // namespace conclave::ui
