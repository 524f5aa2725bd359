#include "experiment/FidelityTableModel.h"

#include "timeline/StatusPalette.h"

namespace conclave::ui {

namespace {
using C = FidelityReport::Column;

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}
} // namespace

FidelityTableModel::FidelityTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void FidelityTableModel::setReport(const FidelityReport* report)
{
    beginResetModel();
    m_report = report;
    m_cells.clear();
    if (report)
        for (const auto& d : report->designs) {
            std::vector<QString> row;
            for (const auto& cell : FidelityReport::cells(d))
                row.push_back(q(cell));
            m_cells.push_back(std::move(row));
        }
    endResetModel();
}

QColor FidelityTableModel::warningColour()
{
    return StatusPalette::color(Status::Cancelled);
}

int FidelityTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_cells.size());
}

int FidelityTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(C::ColumnCount);
}

const std::optional<FidelityPrediction>* FidelityTableModel::prediction(const FidelityDesign& design,
                                                                        int column) const
{
    if (column == C::SimulatedZ)
        return &design.simulated;
    if (column == C::ReplayedZ)
        return &design.replayed;
    return nullptr;
}

QVariant FidelityTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_report || !index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto& d = m_report->designs[size_t(index.row())];
    const auto* p = prediction(d, index.column());
    const bool outside = p && p->has_value() && !(*p)->within;
    const bool missing = index.column() >= C::Simulated && index.column() <= C::P95Ratio && !d.simulated;
    switch (role) {
    case Qt::DisplayRole:
        return m_cells[size_t(index.row())][size_t(index.column())];
    case OutsideRole:
        return outside;
    case Qt::BackgroundRole: {
        if (!outside)
            return {};
        QColor c = warningColour();
        c.setAlpha(150);
        return c;
    }
    case Qt::TextAlignmentRole:
        return index.column() == C::Design ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                           : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == C::Design)
            return tr("%1\nmeasured in experiment %2%3")
                .arg(q(d.name), q(d.experiment), d.combines ? tr("; it combines calls") : QString());
        if (outside)
            return tr("Outside 1.96 combined standard errors: this prediction and the measurement disagree");
        if (missing && !d.why.empty())
            return tr("Not predicted: %1").arg(q(d.why));
        return {};
    default:
        return {};
    }
}

QVariant FidelityTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {
        QT_TR_NOOP("design"),         QT_TR_NOOP("measured (95% CI)"), QT_TR_NOOP("simulated (95% CI)"),
        QT_TR_NOOP("z"),              QT_TR_NOOP("cost ratio"),        QT_TR_NOOP("p50 wall ratio"),
        QT_TR_NOOP("p95 wall ratio"), QT_TR_NOOP("replayed (95% CI)"), QT_TR_NOOP("z"),
        QT_TR_NOOP("self-replay")};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case C::Measured:
            return tr("Accuracy measured on the tasks the calibration did not read (the held-out part, or every part when cross-fitted)");
        case C::Simulated:
            return tr("Predicted by the simulator calibrated on the other tasks, with the calibration's uncertainty");
        case C::SimulatedZ:
        case C::ReplayedZ:
            return tr("(predicted − measured) / √(se_pred² + se_meas²); marked when |z| > 1.96");
        case C::CostRatio:
        case C::P50Ratio:
        case C::P95Ratio:
            return tr("Simulated ÷ measured");
        case C::Replayed:
            return tr("Replayed from the other designs' recorded calls only (what was not recorded is simulated)");
        case C::SelfReplay:
            return tr("Replayed from every recorded call, its own included: the reproduction check");
        default:
            return {};
        }
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace conclave::ui
