#include "experiment/DesignAgentsView.h"

#include "timeline/ChartStyle.h"
#include "timeline/LatencyBoxPlot.h"

#include "conclave/analysis/LatencyDistribution.h"
#include "conclave/experiment/ReportText.h"

#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace conclave::ui {

namespace {

QTableWidgetItem* cell(const std::string& text, bool number = true)
{
    auto* item = new QTableWidgetItem(QString::fromStdString(text));
    item->setTextAlignment(number ? (Qt::AlignRight | Qt::AlignVCenter) : (Qt::AlignLeft | Qt::AlignVCenter));
    return item;
}

} // namespace

DesignAgentsView::DesignAgentsView(QWidget* parent)
    : QWidget(parent), m_design(new QComboBox(this)), m_table(new QTableWidget(this)), m_boxes(new LatencyBoxPlot(this)),
      m_trial(new QComboBox(this)), m_whatIf(new QPushButton(tr("What-if…"), this))
{
    m_table->setColumnCount(7);
    m_table->setHorizontalHeaderLabels({tr("Agent"), tr("Critical path"), tr("Cost share"), tr("Calls"), tr("p50 call"),
                                        tr("p95 call"), tr("Busy / trial")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeaderItem(1)->setToolTip(
        tr("The share of the design's trials whose critical path runs through the agent"));
    m_table->horizontalHeaderItem(2)->setToolTip(tr("The agent's share of the design's cost"));
    m_table->horizontalHeaderItem(3)->setToolTip(
        tr("Its call attempts over all the design's trials, retries included"));
    m_table->horizontalHeaderItem(4)->setToolTip(tr("The latency of one call attempt: the median over all of them"));
    m_table->horizontalHeaderItem(5)->setToolTip(tr("The latency of one call attempt: the 95th percentile"));
    m_table->horizontalHeaderItem(6)->setToolTip(
        tr("Its own execution in a trial (every round of a meeting member summed), averaged over the trials in "
           "which it ran"));
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Design:"), this));
    bar->addWidget(m_design);
    bar->addStretch(1);
    bar->addWidget(new QLabel(tr("Trial:"), this));
    bar->addWidget(m_trial);
    bar->addWidget(m_whatIf);
    m_trial->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_trial->setToolTip(tr("A trial of the design whose run was stored: the What-if panel re-runs it"));
    m_whatIf->setToolTip(tr("What a faster agent, another model or more calls at once would have saved in this "
                            "trial (a projection from its recorded calls)"));
    connect(m_whatIf, &QPushButton::clicked, this, [this] {
        const QString id = m_trial->currentData().toString();
        if (!m_report || id.isEmpty())
            return;
        const auto& d = m_report->summary.designs[size_t(design())];
        emit whatIfRequested(RunId(id.toStdString()),
                             tr("trial %1 of design %2").arg(m_trial->currentText(), QString::fromStdString(d.name)));
    });
    // Shorter than the box plot's own tab needs: this one shares the main window with its docks.
    m_boxes->chartView()->setMinimumSize(300, 180);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_boxes);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    connect(m_design, &QComboBox::currentIndexChanged, this, [this](int i) { fill(i); });
}

void DesignAgentsView::setReport(const ExperimentReport* report)
{
    m_report = report;
    const QSignalBlocker block(m_design);
    m_design->clear();
    if (report)
        for (const auto& d : report->summary.designs)
            m_design->addItem(QString::fromStdString(d.name));
    const int first = report ? report->summary.baseline : -1;
    m_design->setCurrentIndex(first);
    fill(first);
}

void DesignAgentsView::setDesign(int design)
{
    m_design->setCurrentIndex(design);
}

int DesignAgentsView::design() const
{
    return m_design->currentIndex();
}

void DesignAgentsView::fillTrials(int design)
{
    m_trial->clear();
    if (m_report)
        for (const auto& t : m_report->trials)
            if (t.design == design && !t.runId.empty())
                m_trial->addItem(QStringLiteral("%1 · seed %2").arg(QString::fromStdString(t.task)).arg(t.seed),
                                 QString::fromStdString(t.runId.str()));
    m_whatIf->setEnabled(m_trial->count() > 0);
    m_trial->setEnabled(m_trial->count() > 0);
}

void DesignAgentsView::fill(int design)
{
    fillTrials(design);
    m_table->setRowCount(0);
    if (!m_report || design < 0 || size_t(design) >= m_report->summary.designs.size()) {
        m_boxes->setBoxes({}, {});
        return;
    }
    const auto& d = m_report->summary.designs[size_t(design)];
    m_table->setRowCount(int(d.agents.size()));
    for (int r = 0; r < int(d.agents.size()); ++r) {
        const auto& a = d.agents[size_t(r)];
        m_table->setItem(r, 0, cell(a.node, false));
        m_table->setItem(r, 1, cell(ReportText::percent(a.criticalPathShare)));
        m_table->setItem(r, 2, cell(ReportText::percent(a.costShare)));
        const bool calls = a.attempts > 0;
        m_table->setItem(r, 3, cell(std::to_string(a.attempts)));
        m_table->setItem(r, 4, cell(calls ? ReportText::duration(a.attemptMs.p50) : "-"));
        m_table->setItem(r, 5, cell(calls ? ReportText::duration(a.attemptMs.p95) : "-"));
        m_table->setItem(r, 6, cell(ReportText::duration(a.busyMsPerTrial)));
    }
    m_table->resizeColumnsToContents();

    m_boxes->setBoxes(LatencyDistribution::perAgent(m_report->trials, design),
                      tr("Call latency per agent: every attempt in the %1 trials of %2")
                          .arg(std::count_if(m_report->trials.begin(), m_report->trials.end(),
                                             [&](const TrialRecord& t) { return t.design == design; }))
                          .arg(QString::fromStdString(d.name)));
    ChartStyle::apply(m_boxes->chart(), palette());
}

} // namespace conclave::ui
