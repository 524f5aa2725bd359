#include "timeline/RunSummaryView.h"

#include "timeline/ChartAxes.h"

#include "timeline/StatusPalette.h"
#include "timeline/TimeFormat.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QLabel>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

namespace conclave::ui {

namespace {

ThemedChartView* makeChartView(const QString& title, QWidget* parent)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new ThemedChartView(chart, parent);
    view->setMinimumSize(320, 205); // low enough that a run tab under the canvas keeps room for lanes
    return view;
}

} // namespace

RunSummaryView::RunSummaryView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(24);
    addFigure(grid, 0, "wall", tr("Wall time"));
    addFigure(grid, 1, "critical", tr("Critical path"));
    addFigure(grid, 2, "parallelism", tr("Parallelism (busy ÷ wall)"));
    addFigure(grid, 3, "tokens", tr("Tokens (in / out)"));
    addFigure(grid, 4, "cost", tr("Cost"));
    addFigure(grid, 5, "status", tr("Status"));
    addFigure(grid, 6, "clock", tr("Clock"));
    layout->addLayout(grid);
    m_serialised = new QLabel(this);
    m_serialised->setObjectName("serialised");
    m_serialised->setWordWrap(true);
    layout->addWidget(m_serialised);
    auto* charts = new QHBoxLayout;
    m_timeView = makeChartView(tr("Per agent: wall vs busy time (ms)"), this);
    m_tokensView = makeChartView(tr("Per agent: tokens and cost"), this);
    charts->addWidget(m_timeView);
    charts->addWidget(m_tokensView);
    layout->addLayout(charts, 1);
}

QLabel* RunSummaryView::addFigure(QGridLayout* grid, int column, const QString& name, const QString& title)
{
    auto* heading = new QLabel(title, this);
    heading->setStyleSheet("color: #607d8b; font-size: 8pt;");
    auto* value = new QLabel(QStringLiteral("–"), this);
    value->setObjectName(name);
    value->setStyleSheet("font-size: 12pt; font-weight: 600;");
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid->addWidget(heading, 0, column);
    grid->addWidget(value, 1, column);
    return value;
}

QString RunSummaryView::figure(const QString& name) const
{
    const auto* label = findChild<QLabel*>(name);
    return label ? label->text() : QString();
}

QChart* RunSummaryView::timeChart() const
{
    return m_timeView->chart();
}

QChart* RunSummaryView::tokensChart() const
{
    return m_tokensView->chart();
}

void RunSummaryView::setRun(const StoredRun& run)
{
    m_analysis = RunAnalysis::of(run);
    const auto& a = m_analysis;
    QStringList path;
    for (const auto& n : a.criticalPath)
        path << QString::fromStdString(n.str());
    auto set = [this](const char* name, const QString& text) { findChild<QLabel*>(name)->setText(text); };
    set("wall", TimeFormat::duration(a.wallUs));
    set("critical", TimeFormat::duration(a.criticalPathUs));
    findChild<QLabel*>("critical")->setToolTip(path.join(QStringLiteral(" → ")));
    set("parallelism", QStringLiteral("%1×").arg(a.parallelism, 0, 'f', 2));
    set("tokens", QStringLiteral("%1 / %2").arg(run.summary.tokensIn).arg(run.summary.tokensOut));
    set("cost", TimeFormat::cost(run.summary.costUsd));
    set("status", QString::fromUtf8(toString(run.summary.status).data()));
    const bool simulated = run.summary.clock == ClockKind::Virtual;
    const QString cpu = TimeFormat::duration(run.summary.cpuUs);
    set("clock", simulated ? tr("simulated") : tr("real"));
    findChild<QLabel*>("clock")->setToolTip(
        simulated ? tr("The virtual clock: every time on this timeline is simulated (the models' latencies, "
                       "timeouts and backoff, exactly); the engine's own work counts as no time. The run "
                       "really took %1 of CPU.")
                        .arg(cpu)
                  : tr("The real clock: times as measured (scaled by the team's time_scale). The engine's "
                       "work took %1 of CPU.")
                        .arg(cpu));
    findChild<QLabel*>("wall")->setToolTip(simulated ? tr("simulated time") : tr("measured time"));

    QStringList lines;
    if (!path.isEmpty())
        lines << tr("Critical path: %1").arg(path.join(QStringLiteral(" → ")));
    for (const auto& s : a.serialised) {
        QStringList nodes;
        for (const auto& n : s.nodes)
            nodes << QString::fromStdString(n.str());
        lines << tr("Could have run in parallel but ran one after another: %1 (%2)")
                     .arg(nodes.join(QStringLiteral(", ")), QString::fromStdString(s.why));
    }
    m_serialised->setText(lines.join('\n'));

    std::vector<const AgentStats*> agents;
    QStringList names;
    for (const auto& st : a.agents) {
        if (st.wallUs > 0 || st.calls > 0) {
            agents.push_back(&st);
            names << QString::fromStdString(st.node.str());
        }
    }
    fillTimeChart(agents, names);
    fillTokensChart(agents, names);
}

void RunSummaryView::fillTimeChart(const std::vector<const AgentStats*>& agents, const QStringList& names)
{
    QChart* chart = timeChart();
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis); // gives it back: a live run refills the charts every half second
        delete axis;
    }
    auto* wall = new QBarSet(tr("wall"));
    auto* busy = new QBarSet(tr("busy"));
    wall->setColor(QColor(0x90, 0xa4, 0xae));
    busy->setColor(StatusPalette::color(Status::Running));
    double top = 0;
    for (const auto* st : agents) {
        *wall << double(st->wallUs) / 1000.0;
        *busy << double(st->busyUs) / 1000.0;
        top = std::max(top, double(st->wallUs) / 1000.0);
    }
    auto* series = new QBarSeries;
    series->append(wall);
    series->append(busy);
    chart->addSeries(series);
    auto* x = ChartAxes::agents(names);
    auto* y = ChartAxes::amounts(top);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    m_timeView->restyle();
}

void RunSummaryView::fillTokensChart(const std::vector<const AgentStats*>& agents, const QStringList& names)
{
    QChart* chart = tokensChart();
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis); // gives it back: a live run refills the charts every half second
        delete axis;
    }
    auto* in = new QBarSet(tr("tokens in"));
    auto* out = new QBarSet(tr("tokens out"));
    in->setColor(QColor(0x00, 0x89, 0x7b));
    out->setColor(QColor(0x80, 0xcb, 0xc4));
    // A marker per agent on the category axis: a line would join agents as if they were a continuous axis.
    auto* cost = new QScatterSeries;
    cost->setName(tr("cost (USD)"));
    cost->setColor(QColor(0x8e, 0x24, 0xaa));
    cost->setBorderColor(QColor(0x8e, 0x24, 0xaa));
    cost->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    cost->setMarkerSize(9);
    double topTokens = 0, topCost = 0;
    for (size_t i = 0; i < agents.size(); ++i) {
        *in << double(agents[i]->tokensIn);
        *out << double(agents[i]->tokensOut);
        cost->append(double(i), agents[i]->costUsd);
        topTokens = std::max({topTokens, double(agents[i]->tokensIn), double(agents[i]->tokensOut)});
        topCost = std::max(topCost, agents[i]->costUsd);
    }
    auto* bars = new QBarSeries;
    bars->append(in);
    bars->append(out);
    chart->addSeries(bars);
    chart->addSeries(cost);
    auto* x = ChartAxes::agents(names);
    auto* yTokens = ChartAxes::amounts(topTokens, tr("tokens"));
    auto* yCost = ChartAxes::amounts(topCost, tr("USD"), QStringLiteral("$"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(yTokens, Qt::AlignLeft);
    chart->addAxis(yCost, Qt::AlignRight);
    bars->attachAxis(x);
    bars->attachAxis(yTokens);
    cost->attachAxis(x);
    cost->attachAxis(yCost);
    m_tokensView->restyle();
}

} // namespace conclave::ui
