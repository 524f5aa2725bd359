#include "timeline/CompareModel.h"

#include "timeline/StatusPalette.h"
#include "timeline/TimeFormat.h"

#include <QBrush>

#include <map>

namespace conclave::ui {

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setRuns(StoredRun a, StoredRun b)
{
    beginResetModel();
    m_analysisA = RunAnalysis::of(a);
    m_analysisB = RunAnalysis::of(b);
    m_timelineA = std::make_shared<const TimelineModel>(std::move(a));
    m_timelineB = std::make_shared<const TimelineModel>(std::move(b));
    m_rows.clear();
    std::map<NodeId, size_t> index;
    auto rowFor = [&](const NodeId& node) -> Row& {
        auto [it, added] = index.emplace(node, m_rows.size());
        if (added)
            m_rows.push_back(Row{node});
        return m_rows[it->second];
    };
    for (const auto& st : m_analysisA.agents) {
        Row& r = rowFor(st.node);
        r.inA = true;
        r.latencyA = st.wallUs;
        r.tokensA = st.tokensIn + st.tokensOut;
        r.costA = st.costUsd;
        r.statusA = st.status;
    }
    for (const auto& st : m_analysisB.agents) {
        Row& r = rowFor(st.node);
        r.inB = true;
        r.latencyB = st.wallUs;
        r.tokensB = st.tokensIn + st.tokensOut;
        r.costB = st.costUsd;
        r.statusB = st.status;
    }
    endResetModel();
}

const CompareModel::Row* CompareModel::row(const NodeId& node) const
{
    for (const auto& r : m_rows) {
        if (r.node == node)
            return &r;
    }
    return nullptr;
}

int64_t CompareModel::sharedEndUs() const
{
    return std::max(m_timelineA ? m_timelineA->endUs() : 0, m_timelineB ? m_timelineB->endUs() : 0);
}

int CompareModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int CompareModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Row& r = m_rows[size_t(index.row())];
    const auto status = [](bool present, Status s) {
        return present ? StatusPalette::label(s) : QStringLiteral("—");
    };
    if (role == Qt::DisplayRole) {
        switch (Column(index.column())) {
        case Agent: return QString::fromStdString(r.node.str());
        case LatencyA: return r.inA ? TimeFormat::duration(r.latencyA) : QStringLiteral("—");
        case LatencyB: return r.inB ? TimeFormat::duration(r.latencyB) : QStringLiteral("—");
        case LatencyDelta: return TimeFormat::delta(r.latencyDelta());
        case TokensA: return QString::number(r.tokensA);
        case TokensB: return QString::number(r.tokensB);
        case TokensDelta: return (r.tokensDelta() > 0 ? QStringLiteral("+") : QString()) + QString::number(r.tokensDelta());
        case CostA: return TimeFormat::cost(r.costA);
        case CostB: return TimeFormat::cost(r.costB);
        case CostDelta:
            return r.costDelta() == 0 ? QStringLiteral("0")
                                      : (r.costDelta() > 0 ? QStringLiteral("+") : QStringLiteral("-")) +
                                            TimeFormat::cost(std::abs(r.costDelta()));
        case StatusA: return status(r.inA, r.statusA);
        case StatusB: return status(r.inB, r.statusB);
        case ColumnCount: break;
        }
    }
    if (role == Qt::ForegroundRole) {
        const auto sign = [](double d) { return d > 0 ? QBrush(QColor(0xc6, 0x28, 0x28))
                                              : d < 0 ? QBrush(QColor(0x2e, 0x7d, 0x32)) : QBrush(); };
        switch (Column(index.column())) {
        case LatencyDelta: return sign(double(r.latencyDelta()));
        case TokensDelta: return sign(double(r.tokensDelta()));
        case CostDelta: return sign(r.costDelta());
        case StatusA: return QBrush(StatusPalette::color(r.statusA).darker(120));
        case StatusB: return QBrush(StatusPalette::color(r.statusB).darker(120));
        default: return {};
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
    static const char* const names[] = {"agent", "latency A", "latency B", "Δ latency", "tokens A", "tokens B",
                                        "Δ tokens", "cost A", "cost B", "Δ cost", "status A", "status B"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace conclave::ui
