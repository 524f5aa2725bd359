#pragma once

#include "conclave/store/StoredRun.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

#include <cstdint>

class QTimer;

namespace conclave::ui {

class RunController;
class RunView;

// Keeps the run tab of the run in progress growing: every tick it draws the
// controller's LiveRun as of the run's clock, so the bars of what has started
// reach up to now, attempts and rounds appear as they begin, and the critical
// path shows once the run has found it.
//
// Promises: it ticks only while its run runs and its view exists (a closed
// tab stops it; the run goes on); a tick draws nothing of another run; a tick
// that took long stretches the next interval (up to kMaxIntervalMs), so a big
// run never keeps the GUI busy. It never finishes the tab: RunTabs replaces
// the frame with the stored run once the run is stored.
class LiveRunTab : public QObject {
    Q_OBJECT

public:
    static constexpr int kIntervalMs = 66; // about 15 frames a second
    static constexpr int kMaxIntervalMs = 1000;
    // How often the summary's figures and charts follow (they are costly to rebuild).
    static constexpr int kSummaryMs = 500;

    // Draws the first frame at once and starts ticking.
    LiveRunTab(RunController* runs, RunId run, RunView* view, QObject* parent = nullptr);

    const RunId& run() const { return m_id; }
    // Null once the user closed the tab.
    RunView* view() const { return m_view; }
    bool isTicking() const;
    int interval() const;
    // Draws the run as of `nowUs` (run time): what a tick does with the run's clock.
    void showAt(int64_t nowUs);
    // Stops ticking (the run has ended).
    void stop();

private:
    void tick();

    RunController* m_runs;
    RunId m_id;
    QPointer<RunView> m_view;
    QTimer* m_timer;
    QElapsedTimer m_sinceSummary;
};

} // namespace conclave::ui
