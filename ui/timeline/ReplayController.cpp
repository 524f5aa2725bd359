#include "timeline/ReplayController.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace conclave::ui {

ReplayController::ReplayController(QObject* parent) : QObject(parent), m_timer(new QTimer(this))
{
    m_timer->setInterval(kTickMs);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &ReplayController::tick);
}

void ReplayController::setModel(std::shared_ptr<const TimelineModel> model)
{
    pause();
    m_model = std::move(model);
    m_lanes.clear();
    if (m_model) {
        m_lanes.resize(size_t(m_model->laneCount()));
        for (int lane = 0; lane < m_model->laneCount(); ++lane) {
            auto& index = m_lanes[size_t(lane)];
            const auto bars = m_model->barsInLane(lane);
            const uint32_t first = uint32_t(m_model->firstBarInLane(lane));
            index.starts.reserve(bars.size());
            index.latest.reserve(bars.size());
            for (uint32_t i = 0; i < bars.size(); ++i) {
                index.starts.push_back(bars[i].startUs);
                const uint32_t prev = i == 0 ? first : index.latest.back();
                const auto& p = m_model->bars()[prev];
                // Ties go to the later bar: it is the one the node finished with.
                index.latest.push_back(i == 0 || bars[i].endUs() >= p.endUs() ? first + i : prev);
            }
        }
        for (const auto& n : m_model->run().nodes) {
            const int lane = m_model->laneOf(n.node);
            if (lane < 0 || !m_lanes[size_t(lane)].starts.empty() || !isFinal(n.result.status))
                continue;
            m_lanes[size_t(lane)].before = n.result.status;
            m_lanes[size_t(lane)].beforeFromUs = n.finishedUs >= 0 ? n.finishedUs : m_model->endUs();
        }
    }
    m_positionUs = 0;
    moveTo(0);
}

int64_t ReplayController::durationUs() const { return m_model ? m_model->endUs() : 0; }

Status ReplayController::stateAt(int lane, int64_t atUs) const
{
    const auto& index = m_lanes[size_t(lane)];
    const auto started = std::upper_bound(index.starts.begin(), index.starts.end(), atUs) - index.starts.begin();
    if (started == 0)
        return index.beforeFromUs >= 0 && atUs >= index.beforeFromUs ? index.before : Status::Queued;
    const auto& bar = m_model->bars()[index.latest[size_t(started - 1)]];
    if (bar.endUs() > atUs || (bar.flags & TimelineModel::Open))
        return Status::Running;
    return bar.status;
}

NodeStates ReplayController::statesAt(int64_t atUs) const
{
    NodeStates states;
    if (!m_model)
        return states;
    for (int lane = 0; lane < m_model->laneCount(); ++lane)
        states.emplace(m_model->lane(lane).node, stateAt(lane, atUs));
    return states;
}

void ReplayController::play()
{
    if (m_playing || !m_model)
        return;
    if (m_positionUs >= durationUs())
        moveTo(0);
    m_playing = true;
    m_anchorUs = m_positionUs;
    m_clock.start();
    m_timer->start();
    emit playingChanged(true);
}

void ReplayController::pause()
{
    if (!m_playing)
        return;
    m_playing = false;
    m_timer->stop();
    emit playingChanged(false);
}

void ReplayController::toggle() { m_playing ? pause() : play(); }

void ReplayController::setSpeed(double speed)
{
    speed = std::clamp(speed, kMinSpeed, kMaxSpeed);
    if (speed == m_speed)
        return;
    // Keep the position continuous: re-anchor the clock at the current instant.
    m_anchorUs = m_positionUs;
    m_clock.restart();
    m_speed = speed;
    emit speedChanged(speed);
}

void ReplayController::seek(qint64 atUs)
{
    m_anchorUs = std::clamp<int64_t>(atUs, 0, durationUs());
    if (m_playing)
        m_clock.restart();
    moveTo(m_anchorUs);
}

void ReplayController::tick()
{
    const int64_t elapsedUs = m_clock.nsecsElapsed() / 1000;
    const int64_t at = m_anchorUs + int64_t(std::llround(double(elapsedUs) * m_speed));
    if (at >= durationUs()) {
        moveTo(durationUs());
        pause();
        emit finished();
        return;
    }
    moveTo(at);
}

void ReplayController::moveTo(int64_t atUs)
{
    m_positionUs = atUs;
    emit positionChanged(atUs);
    emit statesChanged(atUs, statesAt(atUs));
}

} // namespace conclave::ui
