#pragma once

#include "timeline/TimelineModel.h"

#include <QElapsedTimer>
#include <QObject>

#include <map>
#include <memory>
#include <vector>

class QTimer;

namespace conclave::ui {

// Each agent's state at one instant of a run.
using NodeStates = std::map<NodeId, Status>;

// Plays a stored run back at its original timing (times a speed of 0.25x to
// 8x), or jumps to any instant. statesAt(t) says what each node was doing at
// t exactly as its spans imply: running inside a span, then the status of the
// span that ended last, queued before its first span (skipped and other
// never-started nodes take their final status when the run recorded it).
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

    NodeStates statesAt(int64_t atUs) const;
    Status stateAt(int lane, int64_t atUs) const;
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
    void statesChanged(qint64 atUs, const conclave::ui::NodeStates& states);
    void playingChanged(bool playing);
    void speedChanged(double speed);
    void finished();

private:
    void tick();
    void moveTo(int64_t atUs);

    struct LaneIndex {
        std::vector<int64_t> starts;    // bar starts, ascending
        std::vector<uint32_t> latest;   // among bars 0..k: the one that ends last
        Status before = Status::Queued; // before its first span
        int64_t beforeFromUs = -1;      // when `before` applies (-1: never; stays queued)
    };

    std::shared_ptr<const TimelineModel> m_model;
    std::vector<LaneIndex> m_lanes;
    QTimer* m_timer;
    QElapsedTimer m_clock;
    int64_t m_anchorUs = 0;
    int64_t m_positionUs = 0;
    double m_speed = 1.0;
    bool m_playing = false;
};

} // namespace conclave::ui
