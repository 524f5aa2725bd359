#pragma once

#include "timeline/TimelineModel.h"

#include "conclave/analysis/ReplayStates.h"

#include <QElapsedTimer>
#include <QObject>

#include <memory>

class QTimer;

namespace conclave::ui {

// Plays a stored run back at its original timing (times a speed of 0.25x to
// 8x), or jumps to any instant. statesAt(t) says what each node was doing at
// t, as ReplayStates reads it from the run's spans.
// Emits the position and the state map on every tick and every seek.
class ReplayController : public QObject {
    Q_OBJECT

public:
    static constexpr double kMinSpeed = 0.25;
    static constexpr double kMaxSpeed = 8.0;
    static constexpr int kTickMs = 33;

    explicit ReplayController(QObject* parent = nullptr);

    void setModel(std::shared_ptr<const TimelineModel> model);
    int64_t durationUs() const;
    int64_t position() const { return m_positionUs; }
    double speed() const { return m_speed; }
    bool isPlaying() const { return m_playing; }

    NodeStates statesAt(int64_t atUs) const { return m_states.statesAt(atUs); }
    NodeStates states() const { return statesAt(m_positionUs); }

public slots:
    void play();
    void pause();
    void toggle();
    // Clamped to [kMinSpeed, kMaxSpeed].
    void setSpeed(double speed);
    // Scrub: clamped to [0, durationUs()].
    void seek(qint64 atUs);

signals:
    void positionChanged(qint64 atUs);
    void statesChanged(qint64 atUs, const conclave::NodeStates& states);
    void playingChanged(bool playing);
    void speedChanged(double speed);
    void finished();

private:
    void tick();
    void moveTo(int64_t atUs);

    std::shared_ptr<const TimelineModel> m_model;
    ReplayStates m_states;
    QTimer* m_timer;
    QElapsedTimer m_clock;
    int64_t m_anchorUs = 0;
    int64_t m_positionUs = 0;
    double m_speed = 1.0;
    bool m_playing = false;
};

} // namespace conclave::ui
