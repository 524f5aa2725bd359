#include "whatif/SpeedupChart.h"

#include "timeline/ChartAxes.h"
#include "timeline/ThemedChartView.h"

#include "conclave/whatif/WhatIfText.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLegend>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace conclave::ui {

namespace {

// The profile's level for 50 % faster, the one agents are ranked by.
constexpr size_t kHalf = 2;
static_assert(SpeedupProfile::kPercents[kHalf] == 50);

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

SpeedupChart::SpeedupChart(QWidget* parent) : QWidget(parent), m_notes(new QLabel(this))
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 8, 4));
    m_view = new ThemedChartView(chart, this);
    m_view->setMinimumSize(260, 200);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_notes);
    setMessage(tr("Profiling: each agent 10, 25, 50 and 100 % faster…"));
}

QChart* SpeedupChart::chart() const
{
    return m_view->chart();
}

QString SpeedupChart::notes() const
{
    return m_notes->text();
}

void SpeedupChart::setMessage(const QString& message)
{
    QChart* c = chart();
    c->removeAllSeries();
    for (auto* axis : c->axes())
        c->removeAxis(axis);
    c->setTitle(tr("Saving per agent at 50 % faster (projection)"));
    m_agents.clear();
    m_saved.clear();
    m_notes->setText(message);
}

void SpeedupChart::setProfile(const SpeedupProfile& profile)
{
    setMessage({});
    const size_t level = kHalf;
    const size_t shown = std::min(profile.rows.size(), size_t(kMaxBars));
    auto* set = new QBarSet(tr("saved at 50 % faster"));
    set->setColor(QColor(0x1e, 0x88, 0xe5));
    set->setBorderColor(QColor(0x15, 0x65, 0xc0));
    QStringList categories;
    double topS = 0;
    // A horizontal bar chart draws its first category at the bottom: the best goes in last.
    for (size_t i = shown; i-- > 0;) {
        const auto& row = profile.rows[i];
        const int64_t saved = profile.savedUs(row, level);
        set->append(double(std::max<int64_t>(saved, 0)) / 1e6);
        categories << ChartAxes::shortName(q(row.node.str()));
        topS = std::max(topS, double(saved) / 1e6);
    }
    for (size_t i = 0; i < shown; ++i) {
        m_agents << q(profile.rows[i].node.str());
        m_saved << qint64(profile.savedUs(profile.rows[i], level));
    }
    QChart* c = chart();
    c->setTitle(
        profile.rows.size() > shown
            ? tr("Saving at 50 % faster: the best %1 of %2 agents (projection)").arg(shown).arg(profile.rows.size())
            : tr("Saving per agent at 50 % faster (projection)"));
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setBarWidth(0.6);
    c->addSeries(series);
    auto* names = new QBarCategoryAxis;
    names->append(categories);
    auto* savedAxis = ChartAxes::amounts(topS, tr("s saved"));
    c->addAxis(names, Qt::AlignLeft);
    c->addAxis(savedAxis, Qt::AlignBottom);
    series->attachAxis(names);
    series->attachAxis(savedAxis);
    m_view->restyle();

    using whatif_text::percentOf;
    using whatif_text::seconds;
    QStringList lines;
    lines << q(profile.headline());
    for (const auto& b : profile.backends)
        lines << tr("backend %1: max_concurrency %2 → %3 saves %4 (%5)")
                     .arg(q(b.backend.str()))
                     .arg(b.from)
                     .arg(b.to)
                     .arg(q(seconds(profile.wall.p50 - b.wall.p50)),
                          q(percentOf(profile.wall.p50 - b.wall.p50, profile.wall.p50)));
    lines << tr("Each a projection from the run's recorded calls, not a new measurement.");
    m_notes->setText(lines.join(QLatin1Char('\n')));
}

} // namespace conclave::ui
