#include "whatif/WhatIfPanel.h"

#include "whatif/SpeedupChart.h"
#include "whatif/WhatIfApply.h"
#include "whatif/WhatIfController.h"
#include "whatif/WhatIfControls.h"

#include "document/TeamDocument.h"
#include "timeline/TimeAxisView.h"
#include "timeline/TimelineView.h"

#include "conclave/whatif/WhatIfText.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

namespace conclave::ui {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

QString pathText(const std::vector<NodeId>& path)
{
    QStringList names;
    for (const auto& n : path)
        names << q(n.str());
    return names.join(QStringLiteral(" → "));
}

} // namespace

WhatIfPanel::WhatIfPanel(WhatIfController* controller, TeamDocument* document, std::set<std::string> localModels,
                         QWidget* parent)
    : QWidget(parent), m_controller(controller), m_document(document), m_localModels(std::move(localModels)),
      m_header(new QLabel(this)), m_wall(new QLabel(this)), m_detail(new QLabel(this)), m_calls(new QLabel(this)),
      m_controlsScroll(new QScrollArea(this)), m_reset(new QPushButton(tr("Reset"), this)),
      m_apply(new QPushButton(tr("Apply to Team"), this)), m_axis(new TimeAxisView(this)),
      m_timeline(new TimelineView(this)), m_legend(new QLabel(this)), m_chart(new SpeedupChart(this))
{
    m_controller->setParent(this);
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    m_wall->setObjectName("whatIfWall");
    QFont bold = m_wall->font();
    bold.setBold(true);
    m_wall->setFont(bold);
    for (auto* label : {m_wall, m_detail, m_calls}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_calls->setObjectName("whatIfCalls");
    m_wall->setText(tr("Loading the run…"));

    m_controlsScroll->setWidgetResizable(true);
    m_controlsScroll->setFrameShape(QFrame::NoFrame);
    m_controlsScroll->setMinimumWidth(420);
    m_controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_apply->setObjectName("whatIfApply");
    m_apply->setEnabled(false);
    m_reset->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_reset);
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_controlsScroll, 1);
    leftLayout->addLayout(buttons);

    m_axis->attach(m_timeline);
    m_legend->setWordWrap(true);
    m_legend->setText(tr("Solid: the run as stored. Ghosted, in each bar's lower half: the projection, its critical "
                         "path outlined in amber."));
    auto* centre = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(m_axis);
    centreLayout->addWidget(m_timeline, 1);
    centreLayout->addSpacing(4);
    centreLayout->addWidget(m_legend);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setChildrenCollapsible(false);
    split->addWidget(left);
    split->addWidget(centre);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 5);
    split->setStretchFactor(2, 3);
    split->setSizes({430, 610, 380});

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(m_wall);
    layout->addWidget(m_detail);
    layout->addWidget(m_calls);
    layout->addWidget(split, 1);

    connect(m_controller, &WhatIfController::loaded, this, &WhatIfPanel::onLoaded);
    connect(m_controller, &WhatIfController::projected, this, &WhatIfPanel::onProjected);
    connect(m_controller, &WhatIfController::projectionFailed, this, &WhatIfPanel::onFailed);
    connect(m_controller, &WhatIfController::profiled, this, [this] { m_chart->setProfile(*m_controller->profile()); });
    connect(m_controller, &WhatIfController::profileFailed, this,
            [this](const QString& error) { m_chart->setMessage(tr("No speed-up profile: %1").arg(error)); });
    connect(m_reset, &QPushButton::clicked, this, [this] {
        if (m_controls)
            m_controls->reset();
    });
    connect(m_apply, &QPushButton::clicked, this, &WhatIfPanel::apply);
    if (m_document) {
        for (auto signal : {&TeamDocument::teamReset, &TeamDocument::settingsChanged})
            connect(m_document, signal, this, &WhatIfPanel::updateApply);
        connect(m_document, &TeamDocument::nodeChanged, this, &WhatIfPanel::updateApply);
    }
    updateApply();
}

void WhatIfPanel::open(const std::string& run, const QString& context)
{
    m_context = context;
    m_header->setText(tr("<b>What-if</b> of run %1%2: projected on the simulated clock from the run's own calls")
                          .arg(q(run).left(12).toHtmlEscaped(),
                               context.isEmpty() ? QString() : QStringLiteral(" · ") + context.toHtmlEscaped()));
    m_controller->load(run);
}

QString WhatIfPanel::headerText() const
{
    return m_header->text();
}

QString WhatIfPanel::wallText() const
{
    return m_wall->text();
}

QString WhatIfPanel::detailText() const
{
    return m_detail->text();
}

QString WhatIfPanel::callsText() const
{
    return m_calls->text();
}

void WhatIfPanel::onLoaded(bool ok, const QString& error)
{
    if (!ok) {
        m_wall->setText(tr("No what-if: %1").arg(error));
        m_chart->setMessage(tr("No speed-up profile: %1").arg(error));
        emit loaded(false);
        return;
    }
    const StoredRun& run = *m_controller->stored();
    m_header->setText(tr("<b>What-if</b> of run %1 (%2)%3: projected on the simulated clock from the run's own calls")
                          .arg(q(run.summary.id.str()).left(12), q(run.summary.teamName).toHtmlEscaped(),
                               m_context.isEmpty() ? QString() : QStringLiteral(" · ") + m_context.toHtmlEscaped()));
    m_controls = new WhatIfControls(m_controller->team(), run, m_controller->waitsRecorded(), m_localModels);
    m_controlsScroll->setWidget(m_controls);
    connect(m_controls, &WhatIfControls::changed, this, &WhatIfPanel::reproject);
    m_timeline->setModel(std::make_shared<const TimelineModel>(run));
    m_reset->setEnabled(true);
    m_wall->setText(tr("Projecting…"));
    reproject();
    emit loaded(true);
}

void WhatIfPanel::reproject()
{
    if (!m_controls)
        return;
    m_controller->request(m_controls->changes());
    updateApply();
}

void WhatIfPanel::onProjected(const std::shared_ptr<const WhatIfProjection>& projection)
{
    using whatif_text::percentOf;
    using whatif_text::seconds;
    const WhatIfReport& r = projection->report;
    const int64_t saved = r.wallBefore - r.wallAfter;
    m_wall->setText(tr("Projected wall: %1 → %2 (saves %3, %4)")
                        .arg(q(seconds(r.wallBefore)), q(seconds(r.wallAfter)), q(seconds(saved)),
                             q(percentOf(saved, r.wallBefore))));
    QStringList detail;
    detail << tr("Projected critical path: %1").arg(pathText(r.pathAfter));
    if (r.statusAfter != r.statusBefore)
        detail << tr("status %1 → %2")
                      .arg(q(std::string(toString(r.statusBefore))), q(std::string(toString(r.statusAfter))));
    QStringList decisions;
    for (const auto& d : r.decisions())
        decisions << q(d);
    detail << tr("decisions changed: %1").arg(decisions.isEmpty() ? tr("none") : decisions.join(QStringLiteral("; ")));
    m_detail->setText(detail.join(QStringLiteral(" · ")));
    // Of the calls the projection answered, those replayed from the run and those the simulator answered.
    QString callsLine = tr("A projection: %1 of %2 calls replayed, %3 simulated")
                            .arg(r.replayedCalls)
                            .arg(r.replayedCalls + r.simulatedCalls)
                            .arg(r.simulatedCalls);
    if (r.cutShortAgain > 0)
        callsLine += tr(", %1 cut short").arg(r.cutShortAgain);
    m_calls->setText(callsLine + tr(". The run's recorded calls on the simulated clock, not a new measurement."));
    m_timeline->setGhost(projection->timeline);
    emit projectionShown();
}

void WhatIfPanel::onFailed(const QString& error)
{
    m_wall->setText(tr("No projection: %1").arg(error));
    m_detail->clear();
    m_timeline->setGhost(nullptr);
    emit projectionShown();
}

void WhatIfPanel::updateApply()
{
    const WhatIfChanges changes = m_controls ? m_controls->changes() : WhatIfChanges{};
    const auto verdict = WhatIfApply::check(m_document, m_controller->team(), changes);
    m_apply->setEnabled(m_controls && verdict.enabled);
    m_apply->setToolTip(verdict.tooltip);
}

void WhatIfPanel::apply()
{
    if (m_document && m_controls)
        WhatIfApply::apply(*m_document, m_controller->team(), m_controls->changes());
    updateApply();
}

} // namespace conclave::ui
