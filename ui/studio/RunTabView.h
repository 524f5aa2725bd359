#pragma once

#include <memory>

class QWidget;

namespace conclave::ui {

class ReplayController;
class TimelineModel;
class TimelineView;

// What a run tab shows, found in one place: the tabs below the canvas hold a
// RunView, a ReplayView, a CompareView or a LatencyBoxPlot, and the window
// asks each of them the same few things. Every field is null when the tab has
// no such part (and all of them for no tab at all).
struct RunTabView {
    // The tab's one run, its model and its timeline: a run or a replay tab.
    std::shared_ptr<const TimelineModel> model;
    TimelineView* timeline = nullptr;
    // The replay's playhead: a replay tab.
    ReplayController* replay = nullptr;
    // What a chart export saves: a latency tab's chart, else the whole tab.
    QWidget* chart = nullptr;
    // A run tab whose run is still going: its model is a frame of it, not the stored run.
    bool live = false;

    static RunTabView of(QWidget* tab);
};

} // namespace conclave::ui
