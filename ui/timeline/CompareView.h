#pragma once

#include "timeline/CompareModel.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace conclave::ui {

class TimelineView;

// Two runs compared: their timelines one above the other on one shared time
// axis (zooming or panning one moves the other), each run's critical path,
// and the per-agent table of deltas from CompareModel.
class CompareView : public QWidget {
    Q_OBJECT

public:
    explicit CompareView(QWidget* parent = nullptr);

    void setRuns(StoredRun a, StoredRun b);
    CompareModel* model() const { return m_model; }
    TimelineView* timelineA() const { return m_timelineA; }
    TimelineView* timelineB() const { return m_timelineB; }
    QTableView* table() const { return m_table; }
    QString criticalPathText(int which) const;

private:
    void sync(TimelineView* from, TimelineView* to);

    CompareModel* m_model;
    QLabel* m_headerA;
    QLabel* m_headerB;
    TimelineView* m_timelineA;
    TimelineView* m_timelineB;
    QTableView* m_table;
    bool m_syncing = false;
};

} // namespace conclave::ui
