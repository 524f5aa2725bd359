#include "whatif/WhatIfControls.h"

#include "conclave/engine/RunPlan.h"
#include "conclave/whatif/SpeedupPlan.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>

namespace conclave::ui {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

QLabel* heading(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()), parent);
    label->setContentsMargins(0, 6, 0, 0);
    return label;
}

// The models a node on `backend` can be given: the local catalog's and the backend's own for a simulated backend;
// for any other, the ones the team's nodes on it call and the ones it has prices for.
QStringList modelsOf(const BackendName& name, const Team& team, const RunPlan& plan,
                     const std::set<std::string>& localModels)
{
    std::set<std::string> names;
    const auto backend = team.backends.find(name);
    if (backend != team.backends.end()) {
        if (backend->second.kind == BackendKind::LocalMoe)
            names.insert(localModels.begin(), localModels.end());
        if (backend->second.models)
            for (const auto& [model, profile] : *backend->second.models)
                names.insert(model);
        if (backend->second.prices)
            for (const auto& [model, price] : *backend->second.prices)
                names.insert(model);
    }
    for (const auto& node : plan.nodes())
        if (node.call && node.call->backend == name)
            names.insert(node.call->model);
    QStringList out;
    for (const auto& n : names)
        out << q(n);
    return out;
}

} // namespace

WhatIfControls::WhatIfControls(const Team& team, const StoredRun& run, bool waitsRecorded,
                               const std::set<std::string>& localModels, QWidget* parent)
    : QWidget(parent)
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(4, 0, 10, 4);
    grid->setHorizontalSpacing(8);
    grid->setColumnStretch(1, 1);
    std::string error;
    const auto plan = RunPlan::make(team, error);
    // The agents: the nodes that called a model in the run, as the profile has them.
    const auto called = SpeedupPlan::called(run.spans);
    int row = 0;
    grid->addWidget(heading(tr("Agents: speed and model"), this), row++, 0, 1, 4);
    std::map<BackendName, int> perBackend;
    for (const auto& node : team.nodes) {
        if (!called.contains(node.id))
            continue;
        const auto index = plan ? plan->indexOf(node.id) : std::nullopt;
        const auto* call = index ? &plan->at(*index).call : nullptr;
        std::string model;
        QStringList models;
        if (call && *call) {
            model = (*call)->model;
            models = modelsOf((*call)->backend, team, *plan, localModels);
            ++perBackend[(*call)->backend];
        }
        addAgent(grid, row++, node, model, models);
    }
    if (!team.backends.empty())
        grid->addWidget(heading(tr("Backends: calls at once"), this), row++, 0, 1, 4);
    for (const auto& [name, backend] : team.backends)
        addBackend(grid, row++, name, backend, perBackend[name], waitsRecorded);
    grid->setRowStretch(row, 1);
}

void WhatIfControls::addAgent(QGridLayout* grid, int row, const Node& node, const std::string& model,
                              const QStringList& models)
{
    Agent agent;
    agent.runModel = model;
    auto* name = new QLabel(q(node.id.str()), this);
    name->setToolTip(q(node.displayName()));
    agent.speed = new QSlider(Qt::Horizontal, this);
    agent.speed->setObjectName(QStringLiteral("speed_") + q(node.id.str()));
    agent.speed->setRange(0, 100);
    agent.speed->setSingleStep(kSpeedStep);
    agent.speed->setPageStep(25);
    agent.speed->setTickInterval(25);
    agent.speed->setTickPosition(QSlider::TicksBelow);
    agent.speed->setMinimumWidth(80);
    agent.speed->setToolTip(
        tr("How much faster each of %1's calls is (latency × (1 − X/100); 100 %: instant)").arg(q(node.id.str())));
    agent.speedLabel = new QLabel(speedLabel(0), this);
    agent.speedLabel->setMinimumWidth(agent.speedLabel->fontMetrics().horizontalAdvance(speedLabel(95)) + 4);
    agent.model = new QComboBox(this);
    agent.model->setObjectName(QStringLiteral("model_") + q(node.id.str()));
    agent.model->addItems(models);
    agent.model->setCurrentText(q(model));
    // As wide as a short name: a long one is read in the list (and the tooltip).
    agent.model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    agent.model->setMinimumContentsLength(12);
    agent.model->setToolTip(tr("%1's model (as run: %2); another one's calls are answered by the simulator")
                                .arg(q(node.id.str()), q(model)));
    agent.model->setEnabled(!models.isEmpty());
    grid->addWidget(name, row, 0);
    grid->addWidget(agent.speed, row, 1);
    grid->addWidget(agent.speedLabel, row, 2);
    grid->addWidget(agent.model, row, 3);
    connect(agent.speed, &QSlider::valueChanged, this, [this, label = agent.speedLabel](int value) {
        // Whole steps only: a drag lands on 0, 5, 10, …
        const int snapped = (value + kSpeedStep / 2) / kSpeedStep * kSpeedStep;
        label->setText(speedLabel(snapped));
        if (!m_resetting)
            emit changed();
    });
    connect(agent.model, &QComboBox::currentTextChanged, this, [this] {
        if (!m_resetting)
            emit changed();
    });
    m_agents.emplace(node.id, agent);
}

void WhatIfControls::addBackend(QGridLayout* grid, int row, const BackendName& name, const Backend& backend, int agents,
                                bool waitsRecorded)
{
    Limit limit;
    limit.limited = backend.maxConcurrency.has_value();
    const int top = limit.limited ? int(std::max<int64_t>(8, 4 * *backend.maxConcurrency))
                                  : std::max(8, agents) + 1; // its top: no limit, as the run had it
    limit.asRun = limit.limited ? int(*backend.maxConcurrency) : top;
    limit.slider = new QSlider(Qt::Horizontal, this);
    limit.slider->setObjectName(QStringLiteral("concurrency_") + q(name.str()));
    limit.slider->setRange(1, top);
    limit.slider->setPageStep(1);
    limit.slider->setValue(limit.asRun);
    limit.label = new QLabel(this);
    auto* label = new QLabel(q(name.str()), this);
    grid->addWidget(label, row, 0);
    grid->addWidget(limit.slider, row, 1);
    grid->addWidget(limit.label, row, 2, 1, 2);
    if (!waitsRecorded) {
        limit.slider->setEnabled(false);
        const QString why = tr("queue waits not recorded: concurrency what-ifs unavailable");
        limit.slider->setToolTip(why);
        label->setToolTip(why);
    } else {
        limit.slider->setToolTip(tr("How many of %1's calls it serves at once (max_concurrency)").arg(q(name.str())));
    }
    m_limits.emplace(name, limit);
    limit.label->setText(limitText(limit));
    connect(limit.slider, &QSlider::valueChanged, this, [this, name] {
        const auto& l = m_limits.at(name);
        l.label->setText(limitText(l));
        if (!m_resetting)
            emit changed();
    });
}

QString WhatIfControls::speedLabel(int percent)
{
    if (percent <= 0)
        return tr("as run");
    if (percent >= 100)
        return tr("instant");
    return tr("%1 % faster").arg(percent);
}

QString WhatIfControls::limitText(const Limit& limit) const
{
    const int value = limit.slider->value();
    if (!limit.limited && value == limit.slider->maximum())
        return tr("no limit");
    return value == limit.asRun ? tr("%1 at once (as run)").arg(value) : tr("%1 at once").arg(value);
}

WhatIfChanges WhatIfControls::changes() const
{
    WhatIfChanges out;
    for (const auto& [node, agent] : m_agents) {
        const int percent = (agent.speed->value() + kSpeedStep / 2) / kSpeedStep * kSpeedStep;
        if (percent > 0)
            out.speeds.set(node, LatencyChange::faster(percent));
        const std::string model = agent.model->currentText().toStdString();
        if (!model.empty() && model != agent.runModel)
            out.models[node] = model;
    }
    for (const auto& [name, limit] : m_limits)
        if (limit.slider->isEnabled() && limit.slider->value() != limit.asRun)
            out.maxConcurrency[name] = limit.slider->value();
    return out;
}

void WhatIfControls::reset()
{
    m_resetting = true;
    for (auto& [node, agent] : m_agents) {
        agent.speed->setValue(0);
        agent.model->setCurrentText(q(agent.runModel));
    }
    for (auto& [name, limit] : m_limits)
        limit.slider->setValue(limit.asRun);
    m_resetting = false;
    emit changed();
}

QSlider* WhatIfControls::speedSlider(const NodeId& node) const
{
    const auto it = m_agents.find(node);
    return it == m_agents.end() ? nullptr : it->second.speed;
}

QComboBox* WhatIfControls::modelBox(const NodeId& node) const
{
    const auto it = m_agents.find(node);
    return it == m_agents.end() ? nullptr : it->second.model;
}

QSlider* WhatIfControls::concurrencySlider(const BackendName& backend) const
{
    const auto it = m_limits.find(backend);
    return it == m_limits.end() ? nullptr : it->second.slider;
}

QString WhatIfControls::speedText(const NodeId& node) const
{
    const auto it = m_agents.find(node);
    return it == m_agents.end() ? QString() : it->second.speedLabel->text();
}

QString WhatIfControls::concurrencyText(const BackendName& backend) const
{
    const auto it = m_limits.find(backend);
    return it == m_limits.end() ? QString() : it->second.label->text();
}

} // namespace conclave::ui
