#pragma once

#include "timeline/TimelineModel.h"

#include <QWidget>

#include <memory>

class QLabel;
class QScrollArea;
class QTabWidget;

namespace conclave::ui {

class LanesSplitter;
class RunSummaryView;
class TimeAxisView;
class TimelineView;

// A stored run inspected: a header (id, team, status, input), its timeline
// under its time axis above, and its summary with charts below. When the view
// is too short for the lanes it fits (LanesSplitter) and the summary's least
// height together, as under the canvas of a small window, it is compact: the
// timeline and the summary become two tabs, so the lanes are never squeezed.
class RunView : public QWidget {
    Q_OBJECT

public:
    explicit RunView(QWidget* parent = nullptr);

    void setRun(StoredRun run);
    std::shared_ptr<const TimelineModel> timelineModel() const { return m_model; }
    TimelineView* timeline() const { return m_timeline; }
    TimeAxisView* axis() const { return m_axis; }
    RunSummaryView* summary() const { return m_summary; }

    // The one-line description of a run shown above its views.
    static QString headerText(const StoredRun& run);
    bool isCompact() const { return m_compact; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void setCompact(bool compact);
    void updateCompact();

    std::shared_ptr<const TimelineModel> m_model;
    QLabel* m_header;
    TimeAxisView* m_axis;
    TimelineView* m_timeline;
    RunSummaryView* m_summary;
    LanesSplitter* m_splitter;
    QWidget* m_lanes;
    QTabWidget* m_pages;
    QScrollArea* m_summaryScroll;
    bool m_compact = false;
};

} // namespace conclave::ui
