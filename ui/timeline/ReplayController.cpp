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
    m_states = m_model ? ReplayStates(m_model->run()) : ReplayStates();
    m_positionUs = 0;
    moveTo(0);
}

int64_t ReplayController::durationUs() const { return m_model ? m_model->endUs() : 0; }

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
