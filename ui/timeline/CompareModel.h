#pragma once

#include "timeline/TimelineModel.h"

#include "conclave/store/RunAnalysis.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace conclave::ui {

// Two runs side by side: a timeline model each on one shared time axis, and
// per agent (matched by node id; team order of A, then B's other nodes) the
// latency, tokens, cost and status of both with B − A deltas. A table model
// for the compare view; the rows are plain data for everything else.
class CompareModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Agent, LatencyA, LatencyB, LatencyDelta, TokensA, TokensB, TokensDelta, CostA, CostB, CostDelta,
                  StatusA, StatusB, ColumnCount };

    struct Row {
        NodeId node;
        bool inA = false, inB = false;
        int64_t latencyA = 0, latencyB = 0;  // the agent's wall time (first start to last end), µs
        int64_t tokensA = 0, tokensB = 0;    // in + out
        double costA = 0, costB = 0;
        Status statusA = Status::Skipped, statusB = Status::Skipped;
        int64_t latencyDelta() const { return latencyB - latencyA; }
        int64_t tokensDelta() const { return tokensB - tokensA; }
        double costDelta() const { return costB - costA; }
        bool statusChanged() const { return statusA != statusB; }
    };

    explicit CompareModel(QObject* parent = nullptr);

    void setRuns(StoredRun a, StoredRun b);
    const std::vector<Row>& rows() const { return m_rows; }
    const Row* row(const NodeId& node) const;
    const RunAnalysis& analysisA() const { return m_analysisA; }
    const RunAnalysis& analysisB() const { return m_analysisB; }
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
    RunAnalysis m_analysisA, m_analysisB;
    std::vector<Row> m_rows;
};

} // namespace conclave::ui
