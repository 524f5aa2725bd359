#pragma once

#include "timeline/CompareModel.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace conclave::ui {

class LanesSplitter;
class TimeAxisView;
class TimelineView;

// Two runs compared: their timelines one above the other under one shared
// QtCharts time axis (zooming or panning either moves the axis and the
// other), each run's critical path, and the per-agent table of deltas from
// CompareModel.
class CompareView : public QWidget {
    Q_OBJECT

public:
    explicit CompareView(QWidget* parent = nullptr);

    void setRuns(StoredRun a, StoredRun b);
    CompareModel* model() const { return m_model; }
    TimelineView* timelineA() const { return m_timelineA; }
    TimelineView* timelineB() const { return m_timelineB; }
    TimeAxisView* axis() const { return m_axis; }
    QTableView* table() const { return m_table; }
    QString criticalPathText(int which) const;

private:
    CompareModel* m_model;
    QLabel* m_headerA;
    QLabel* m_headerB;
    TimeAxisView* m_axis;
    TimelineView* m_timelineA;
    TimelineView* m_timelineB;
    QTableView* m_table;
    LanesSplitter* m_splitter;
};

} // namespace conclave::ui
