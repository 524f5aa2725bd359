#include "studio/LiveRunTab.h"

#include "run/RunController.h"
#include "timeline/RunView.h"

#include <QTimer>

#include <algorithm>

namespace conclave::ui {

LiveRunTab::LiveRunTab(RunController* runs, RunId run, RunView* view, QObject* parent)
    : QObject(parent), m_runs(runs), m_id(std::move(run)), m_view(view), m_timer(new QTimer(this))
{
    m_timer->setInterval(kIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &LiveRunTab::tick);
    showAt(m_runs->runNowUs());
    m_timer->start();
}

bool LiveRunTab::isTicking() const
{
    return m_timer->isActive();
}

int LiveRunTab::interval() const
{
    return m_timer->interval();
}

void LiveRunTab::stop()
{
    m_timer->stop();
}

void LiveRunTab::tick()
{
    if (!m_view || !m_runs->isRunning() || m_runs->currentRun() != m_id) {
        stop();
        return;
    }
    QElapsedTimer took;
    took.start();
    showAt(m_runs->runNowUs());
    // A frame that takes a fair share of the interval makes the next ones rarer.
    m_timer->setInterval(std::clamp(int(took.elapsed()) * 4, kIntervalMs, kMaxIntervalMs));
}

void LiveRunTab::showAt(int64_t nowUs)
{
    const LiveRun* live = m_runs->liveRun();
    if (!m_view || !live || live->id() != m_id)
        return;
    const bool summary = !m_sinceSummary.isValid() || m_sinceSummary.elapsed() >= kSummaryMs;
    m_view->showLive(live->snapshot(nowUs), summary);
    if (summary)
        m_sinceSummary.start();
}

} // namespace conclave::ui
