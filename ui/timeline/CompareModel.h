#pragma once

#include "timeline/TimelineModel.h"

#include "conclave/analysis/RunComparison.h"

#include <QAbstractTableModel>

#include <memory>

namespace conclave::ui {

// Two runs side by side: a timeline model each on one shared time axis, and
// the RunComparison of the two (per agent, the latency, tokens, cost and
// status of both with B − A deltas) as a table model for the compare view.
class CompareModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Agent, LatencyA, LatencyB, LatencyDelta, TokensA, TokensB, TokensDelta, CostA, CostB, CostDelta,
                  StatusA, StatusB, ColumnCount };

    explicit CompareModel(QObject* parent = nullptr);

    void setRuns(StoredRun a, StoredRun b);
    // The per-agent figures and deltas, one row each.
    const RunComparison& comparison() const { return m_comparison; }
    std::shared_ptr<const TimelineModel> timelineA() const { return m_timelineA; }
    std::shared_ptr<const TimelineModel> timelineB() const { return m_timelineB; }
    // The end of the shared time axis: the longer of the two runs.
    int64_t sharedEndUs() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const TimelineModel> m_timelineA, m_timelineB;
    RunComparison m_comparison;
};

} // namespace conclave::ui
