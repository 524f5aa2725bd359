#include "timeline/CompareModel.h"

#include "timeline/StatusPalette.h"
#include "timeline/TimeFormat.h"

#include <QBrush>

namespace conclave::ui {

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setRuns(StoredRun a, StoredRun b)
{
    beginResetModel();
    m_comparison = RunComparison(a, b);
    m_timelineA = std::make_shared<const TimelineModel>(std::move(a));
    m_timelineB = std::make_shared<const TimelineModel>(std::move(b));
    endResetModel();
}

int64_t CompareModel::sharedEndUs() const
{
    return std::max(m_timelineA ? m_timelineA->endUs() : 0, m_timelineB ? m_timelineB->endUs() : 0);
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_comparison.agents().size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const AgentComparison& r = m_comparison.agents()[size_t(index.row())];
    const auto status = [](const AgentRunFigures& f) {
        return f.present ? StatusPalette::label(f.status) : QStringLiteral("—");
    };
    if (role == Qt::DisplayRole) {
        switch (Column(index.column())) {
        case Agent:
            return QString::fromStdString(r.node.str());
        case LatencyA:
            return r.a.present ? TimeFormat::duration(r.a.latencyUs) : QStringLiteral("—");
        case LatencyB:
            return r.b.present ? TimeFormat::duration(r.b.latencyUs) : QStringLiteral("—");
        case LatencyDelta:
            return TimeFormat::delta(r.latencyDelta());
        case TokensA:
            return QString::number(r.a.tokens);
        case TokensB:
            return QString::number(r.b.tokens);
        case TokensDelta:
            return (r.tokensDelta() > 0 ? QStringLiteral("+") : QString()) + QString::number(r.tokensDelta());
        case CostA:
            return TimeFormat::cost(r.a.costUsd);
        case CostB:
            return TimeFormat::cost(r.b.costUsd);
        case CostDelta:
            return r.costDelta() == 0 ? QStringLiteral("0")
                                      : (r.costDelta() > 0 ? QStringLiteral("+") : QStringLiteral("-")) +
                                            TimeFormat::cost(std::abs(r.costDelta()));
        case StatusA:
            return status(r.a);
        case StatusB:
            return status(r.b);
        case ColumnCount:
            break;
        }
    }
    if (role == Qt::ForegroundRole) {
        const auto sign = [](double d) {
            return d > 0 ? QBrush(QColor(0xc6, 0x28, 0x28)) : d < 0 ? QBrush(QColor(0x2e, 0x7d, 0x32)) : QBrush();
        };
        switch (Column(index.column())) {
        case LatencyDelta:
            return sign(double(r.latencyDelta()));
        case TokensDelta:
            return sign(double(r.tokensDelta()));
        case CostDelta:
            return sign(r.costDelta());
        case StatusA:
            return QBrush(StatusPalette::color(r.a.status).darker(120));
        case StatusB:
            return QBrush(StatusPalette::color(r.b.status).darker(120));
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Agent)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {"agent",    "latency A", "latency B", "Δ latency", "tokens A", "tokens B",
                                        "Δ tokens", "cost A",    "cost B",    "Δ cost",    "status A", "status B"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace conclave::ui
