#pragma once

#include "whatif/WhatIfProjection.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <set>
#include <string>

class QLabel;
class QPushButton;
class QScrollArea;

namespace conclave::ui {

class SpeedupChart;
class TeamDocument;
class TimeAxisView;
class TimelineView;
class WhatIfController;
class WhatIfControls;

// The studio's What-if panel on one stored run (docs/whatif.md): a slider per
// agent (speed) and per backend (calls at once) and a model per agent; the
// projected timeline ghosted over the stored one, the projection's critical
// path highlighted; a bar chart ranking the agents by the wall each saves at
// 50 % faster; and Apply, which writes the changes that are team fields into
// the open team (WhatIfApply). Every projected figure says it is a
// projection, with how many of its calls were replayed and how many simulated.
// The same panel serves a run tab and an experiment's trial (`context` says
// which trial). It draws what its WhatIfController answers, nothing more.
class WhatIfPanel : public QWidget {
    Q_OBJECT

public:
    // Takes `controller` (parented to the panel); `document`, the team open in the editor, may be null.
    WhatIfPanel(WhatIfController* controller, TeamDocument* document, std::set<std::string> localModels,
                QWidget* parent = nullptr);

    // Loads `run` (an id or a unique prefix) and shows it unchanged; `context` (e.g. "trial math-001, seed 3 of
    // design fan-out") is said in the header.
    void open(const std::string& run, const QString& context = {});

    WhatIfController* controller() const { return m_controller; }
    // Null until the run has loaded.
    WhatIfControls* controls() const { return m_controls; }
    TimelineView* timeline() const { return m_timeline; }
    TimeAxisView* axis() const { return m_axis; }
    SpeedupChart* chart() const { return m_chart; }
    QPushButton* applyButton() const { return m_apply; }
    QPushButton* resetButton() const { return m_reset; }
    QString headerText() const;
    // "Projected wall: 1.300 s → 0.800 s (saves 0.500 s, 38.5 %)".
    QString wallText() const;
    // The projection's critical path, its status and decisions changed.
    QString detailText() const;
    // "A projection: 2 of 2 calls replayed, 0 simulated. …".
    QString callsText() const;

signals:
    void loaded(bool ok);
    // A projection has been drawn (the newest one asked for).
    void projectionShown();

private:
    void onLoaded(bool ok, const QString& error);
    void onProjected(const std::shared_ptr<const WhatIfProjection>& projection);
    void onFailed(const QString& error);
    void reproject();
    void updateApply();
    void apply();

    WhatIfController* m_controller;
    QPointer<TeamDocument> m_document;
    std::set<std::string> m_localModels;
    QString m_context;
    QLabel* m_header;
    QLabel* m_wall;
    QLabel* m_detail;
    QLabel* m_calls;
    QScrollArea* m_controlsScroll;
    WhatIfControls* m_controls = nullptr;
    QPushButton* m_reset;
    QPushButton* m_apply;
    TimeAxisView* m_axis;
    TimelineView* m_timeline;
    QLabel* m_legend;
    SpeedupChart* m_chart;
};

} // namespace conclave::ui
