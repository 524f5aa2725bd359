#pragma once

#include "conclave/model/Team.h"
#include "conclave/store/StoredRun.h"
#include "conclave/whatif/WhatIfChanges.h"

#include <QWidget>

#include <map>
#include <set>
#include <string>

class QComboBox;
class QGridLayout;
class QLabel;
class QSlider;

namespace conclave::ui {

// The What-if panel's knobs, one row each: per agent (every node that called
// a model in the run, in team order) a speed slider, 0 to 100 % faster in
// steps of 5 (100 %: instant, as in Coz), and a combo of the models of its
// backend; per backend a max_concurrency slider (disabled, saying why, when
// the run did not record its queue waits). changes() reads them as core's
// WhatIfChanges: a knob left where the run had it changes nothing.
class WhatIfControls : public QWidget {
    Q_OBJECT

public:
    static constexpr int kSpeedStep = 5;

    // `localModels`: the catalog's models, offered for every local-moe backend.
    WhatIfControls(const Team& team, const StoredRun& run, bool waitsRecorded, const std::set<std::string>& localModels,
                   QWidget* parent = nullptr);

    WhatIfChanges changes() const;
    // Every knob back where the run had it (one changed() at the end).
    void reset();

    QSlider* speedSlider(const NodeId& node) const;
    QComboBox* modelBox(const NodeId& node) const;
    QSlider* concurrencySlider(const BackendName& backend) const;
    // "50 % faster", "2 at once": what a knob's label says now.
    QString speedText(const NodeId& node) const;
    QString concurrencyText(const BackendName& backend) const;

    // "as run", "25 % faster", "instant".
    static QString speedLabel(int percent);

signals:
    void changed();

private:
    struct Agent {
        QSlider* speed = nullptr;
        QLabel* speedLabel = nullptr;
        QComboBox* model = nullptr;
        std::string runModel;
    };
    struct Limit {
        QSlider* slider = nullptr;
        QLabel* label = nullptr;
        int asRun = 0;        // the slider's value as the run had it
        bool limited = false; // the run had a max_concurrency (else its top is "no limit")
    };
    void addAgent(QGridLayout* grid, int row, const Node& node, const std::string& model, const QStringList& models);
    void addBackend(QGridLayout* grid, int row, const BackendName& name, const Backend& backend, int agents,
                    bool waitsRecorded);
    QString limitText(const Limit& limit) const;

    std::map<NodeId, Agent> m_agents;
    std::map<BackendName, Limit> m_limits;
    bool m_resetting = false;
};

} // namespace conclave::ui
