#pragma once

#include "timeline/ReplayController.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QTableWidget;

namespace conclave::ui {

class TimeAxisView;
class TimelineView;

// A stored run replayed: play/pause, speed, a scrub slider over the whole
// run, the timeline with its playhead under its time axis — the ruler: a
// click or drag on it seeks — and each agent's state at the playhead.
class ReplayView : public QWidget {
    Q_OBJECT

public:
    explicit ReplayView(QWidget* parent = nullptr);

    void setRun(StoredRun run);
    ReplayController* controller() const { return m_controller; }
    std::shared_ptr<const TimelineModel> timelineModel() const { return m_model; }
    TimelineView* timeline() const { return m_timeline; }
    TimeAxisView* ruler() const { return m_ruler; }
    QTableWidget* states() const { return m_states; }

private:
    void showStates(qint64 atUs, const NodeStates& states);

    std::shared_ptr<const TimelineModel> m_model;
    ReplayController* m_controller;
    QPushButton* m_play;
    QComboBox* m_speed;
    QSlider* m_slider;
    QLabel* m_time;
    QLabel* m_header;
    TimeAxisView* m_ruler;
    TimelineView* m_timeline;
    QTableWidget* m_states;
};

} // namespace conclave::ui
