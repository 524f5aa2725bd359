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
// A run still going is shown live: frame by frame, as it grows (showLive),
// until setRun shows it finished.
class RunView : public QWidget {
    Q_OBJECT

public:
    explicit RunView(QWidget* parent = nullptr);

    void setRun(StoredRun run);
    // The next frame of a run still going (LiveRun::snapshot): the timeline
    // keeps what the user chose (TimelineView::updateModel) and shows time up
    // to liveExtentUs of the run's wall time, so the scale changes in steps,
    // not at every frame; the summary follows only `withSummary` (its charts
    // are costly to rebuild).
    void showLive(StoredRun run, bool withSummary);
    // Shown by showLive, and not yet by setRun.
    bool isLive() const { return m_live; }
    // How much time a live timeline spans at `wallUs`: a 1-2-5 value above it
    // with room to grow (a tenth), at least 100 ms.
    static int64_t liveExtentUs(int64_t wallUs);
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
    bool m_live = false;
};

} // namespace conclave::ui
