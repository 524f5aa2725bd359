#include "search/SearchFrontChart.h"

#include "experiment/PointLabels.h"
#include "timeline/ChartAxes.h"
#include "timeline/ChartStyle.h"

#include "conclave/experiment/ReportText.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSet>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace conclave::ui {

namespace {

// Low to high: cool to warm, readable on the light and the dark theme.
QColor bandColour(int band)
{
    static const QColor colours[SearchFrontChart::kBins] = {QColor(0x1e, 0x88, 0xe5), QColor(0x00, 0x89, 0x7b),
                                                            QColor(0xf9, 0xa8, 0x25), QColor(0xe5, 0x39, 0x35)};
    return colours[std::clamp(band, 0, SearchFrontChart::kBins - 1)];
}

// A band's bound, short enough for a legend entry.
QString bound(Objective objective, double value)
{
    if (objective == Objective::P50Wall || objective == Objective::P95Wall)
        return QString::fromStdString(ReportText::duration(value));
    if (objective == Objective::Accuracy)
        return QString::fromStdString(ReportText::percent(value));
    if (objective == Objective::Calls)
        return QString::number(value, 'f', 1);
    return QString::fromStdString(SearchObjectives::format(objective, value));
}

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

// A test figure of a report, by objective.
double testFigure(const nlohmann::ordered_json& test, Objective objective)
{
    static const char* keys[] = {"accuracy", "cost_usd", "p50_wall_ms", "p95_wall_ms", "calls", "tokens"};
    const auto* key = keys[size_t(objective)];
    return test.contains(key) && test[key].is_number() ? test[key].get<double>() : 0;
}

// "2.68–8.6 s": a legend entry as short as it reads, the unit said once when both bounds share it.
QString range(QString from, const QString& to)
{
    const auto space = to.lastIndexOf(QLatin1Char(' '));
    if (space > 0 && from.endsWith(to.mid(space)))
        from.chop(to.size() - space);
    return QStringLiteral("%1–%2").arg(from, to);
}

} // namespace

std::vector<SearchFrontChart::Dot> SearchFrontChart::dotsOf(const std::vector<DesignSearch::FrontPoint>& front,
                                                            const std::vector<Objective>& objectives,
                                                            std::optional<Objective> colour)
{
    std::vector<Dot> dots;
    for (const auto& f : front) {
        Dot d;
        d.candidate = f.candidate;
        d.label = QStringLiteral("#%1").arg(f.candidate);
        d.accuracy = f.figures[Objective::Accuracy];
        d.ci = std::make_pair(f.accuracyCi.lo, f.accuracyCi.hi);
        d.costUsd = f.figures[Objective::Cost];
        d.third = colour ? f.figures[*colour] : 0;
        d.text = tr("#%1 %2\naccuracy %3 %4 on the search part (simulated)")
                     .arg(f.candidate)
                     .arg(qstr(f.name), qstr(ReportText::percent(d.accuracy)), qstr(ReportText::ciText(f.accuracyCi)));
        for (const auto o : objectives) {
            if (o != Objective::Accuracy)
                d.text += QStringLiteral("\n%1 %2").arg(qstr(std::string(toString(o))),
                                                        qstr(SearchObjectives::format(o, f.figures[o])));
        }
        dots.push_back(std::move(d));
    }
    return dots;
}

std::vector<SearchFrontChart::Dot> SearchFrontChart::dotsOf(const nlohmann::ordered_json& report,
                                                            std::optional<Objective> colour)
{
    std::vector<Dot> dots;
    const auto add = [&](const nlohmann::ordered_json& test, const QString& label, const QString& name, bool base,
                         int candidate) {
        Dot d;
        d.candidate = candidate;
        d.label = label;
        d.base = base;
        d.accuracy = testFigure(test, Objective::Accuracy);
        if (test["accuracy_ci"].is_array())
            d.ci = std::make_pair(test["accuracy_ci"][0].get<double>(), test["accuracy_ci"][1].get<double>());
        d.costUsd = testFigure(test, Objective::Cost);
        d.third = colour ? testFigure(test, *colour) : 0;
        d.text = tr("%1\naccuracy %2 %3 on the test part (simulated)\ncost %4 per trial")
                     .arg(name, qstr(ReportText::percent(d.accuracy)),
                          d.ci ? qstr(ReportText::ciText({d.ci->first, d.ci->second})) : QString(),
                          qstr(SearchObjectives::format(Objective::Cost, d.costUsd)));
        if (colour)
            d.text += QStringLiteral("\n%1 %2").arg(qstr(std::string(toString(*colour))),
                                                    qstr(SearchObjectives::format(*colour, d.third)));
        dots.push_back(std::move(d));
    };
    if (!report.is_object())
        return dots;
    for (const auto& b : report.value("baselines", nlohmann::ordered_json::array()))
        add(b["test"], b["kind"] == "reference" ? tr("ref") : tr("base"), qstr(b["name"].get<std::string>()), true,
            b.value("candidate", 0));
    for (const auto& d : report.value("front", nlohmann::ordered_json::array())) {
        if (d.contains("test"))
            add(d["test"], QStringLiteral("#%1").arg(d["candidate"].get<int>()), qstr(d["name"].get<std::string>()),
                false, d["candidate"].get<int>());
    }
    return dots;
}

SearchFrontChart::SearchFrontChart(QWidget* parent)
    : QWidget(parent), m_caption(new QLabel(this)), m_x(new QLogValueAxis), m_y(new QValueAxis),
      m_bases(new QScatterSeries)
{
    m_caption->setObjectName("searchFrontCaption");
    m_caption->setWordWrap(true);
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont small = chart->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.9); // four bands and the bases fit a narrow chart
    chart->legend()->setFont(small);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    m_x->setTitleText(tr("mean cost per trial (USD, log scale)"));
    m_x->setBase(10);
    m_x->setLabelFormat(QStringLiteral("$%g"));
    m_x->setMinorTickCount(0);
    m_y->setTitleText(tr("accuracy (%)"));
    m_view = new QChartView(chart, this);
    m_view->setObjectName("searchFrontView");
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(360, 240);
    const auto attach = [&](QScatterSeries* s) {
        chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    };
    for (int b = 0; b < kBins; ++b) {
        auto* band = new QScatterSeries;
        band->setColor(bandColour(b));
        band->setBorderColor(bandColour(b));
        band->setMarkerSize(11);
        attach(band);
        m_bands.push_back(band);
    }
    m_bases->setName(tr("as drawn"));
    m_bases->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_bases->setMarkerSize(14);
    attach(m_bases);
    for (auto* series : m_bands) {
        connect(series, &QScatterSeries::hovered, this, [this](const QPointF& at, bool state) {
            if (!state) {
                QToolTip::hideText();
                return;
            }
            for (const auto& d : m_dots) {
                if (std::abs(xOf(d) - at.x()) < 1e-12 && std::abs(d.accuracy * 100 - at.y()) < 1e-9) {
                    QToolTip::showText(QCursor::pos(), d.text, m_view);
                    return;
                }
            }
        });
    }
    // CI bars for a front of this many made now: a live front grows without new series.
    for (size_t b = 0; b < kPooledBars; ++b)
        bar(b);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_caption);
    layout->addWidget(m_view, 1);
    connect(chart, &QChart::plotAreaChanged, this, &SearchFrontChart::placeLabels);
    setDots({}, std::nullopt, tr("No design has been measured on the whole search part yet."));
}

double SearchFrontChart::xOf(const Dot& dot) const
{
    return std::max(dot.costUsd, m_xFloor);
}

QChart* SearchFrontChart::chart() const
{
    return m_view->chart();
}

QLineSeries* SearchFrontChart::bar(size_t index)
{
    while (m_bars.size() <= index) {
        auto* line = new QLineSeries;
        chart()->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        for (auto* marker : chart()->legend()->markers(line))
            marker->setVisible(false);
        m_bars.push_back(line);
    }
    return m_bars[index];
}

void SearchFrontChart::setDots(std::vector<Dot> dots, std::optional<Objective> colour, const QString& caption)
{
    m_dots = std::move(dots);
    m_caption->setText(
        colour ? tr("%1; colour: %2, low to high").arg(caption, QString::fromStdString(std::string(toString(*colour))))
               : caption);
    double lo = 0, hi = 0;
    bool any = false;
    for (const auto& d : m_dots) {
        if (d.base)
            continue;
        lo = any ? std::min(lo, d.third) : d.third;
        hi = any ? std::max(hi, d.third) : d.third;
        any = true;
    }
    const auto bandOf = [&](double v) {
        if (!colour || hi <= lo)
            return 0;
        return std::clamp(int((v - lo) / (hi - lo) * kBins), 0, kBins - 1);
    };
    std::vector<QList<QPointF>> bands(kBins);
    QList<QPointF> bases;
    double xMax = 0, xMin = std::numeric_limits<double>::infinity(), yLo = 100;
    for (const auto& d : m_dots) {
        xMax = std::max(xMax, d.costUsd);
        if (d.costUsd > 0)
            xMin = std::min(xMin, d.costUsd);
    }
    // Whole decades around the costs drawn; a free design sits on the axis.
    const double low = xMin > 0 && std::isfinite(xMin) ? xMin : 1e-6;
    m_xFloor = std::pow(10.0, std::floor(std::log10(low)));
    if (m_dots.empty()) // nothing measured yet: a cent down to a thousandth of one, as simulated designs cost
        m_xFloor = 1e-5;
    m_x->setRange(m_xFloor, m_dots.empty() ? 1e-2 : std::pow(10.0, std::ceil(std::log10(std::max(xMax, low) * 1.5))));
    size_t bars = 0;
    for (const auto& d : m_dots) {
        const QPointF at(xOf(d), d.accuracy * 100);
        (d.base ? bases : bands[size_t(bandOf(d.third))]).append(at);
        yLo = std::min(yLo, d.accuracy * 100);
        if (d.ci && std::isfinite(d.ci->first) && std::isfinite(d.ci->second)) {
            auto* line = bar(bars++);
            line->replace(QList<QPointF>{{xOf(d), d.ci->first * 100}, {xOf(d), d.ci->second * 100}});
            line->setPen(QPen(d.base ? palette().color(QPalette::Text) : bandColour(bandOf(d.third)), 2));
            yLo = std::min(yLo, d.ci->first * 100);
        }
    }
    // Unused bars are emptied, never hidden: a series shown again shows its legend marker again.
    for (size_t b = bars; b < m_bars.size(); ++b)
        m_bars[b]->clear();
    for (int b = 0; b < kBins; ++b) {
        auto* series = m_bands[size_t(b)];
        series->replace(bands[size_t(b)]);
        // The legend is the colour scale: each band its range of the colour objective.
        const double from = lo + (hi - lo) * b / kBins, to = lo + (hi - lo) * (b + 1) / kBins;
        QString name = tr("front designs");
        if (colour && hi > lo)
            name = range(bound(*colour, from), bound(*colour, to));
        else if (colour && any)
            name = bound(*colour, lo);
        series->setName(name);
        for (auto* marker : chart()->legend()->markers(series))
            marker->setVisible(!bands[size_t(b)].isEmpty());
    }
    m_bases->replace(bases);
    m_bases->setColor(palette().color(QPalette::Base));
    m_bases->setBorderColor(palette().color(QPalette::Text));
    for (auto* marker : chart()->legend()->markers(m_bases))
        marker->setVisible(!bases.isEmpty());

    const double yBottom = m_dots.empty() ? 0 : std::max(0.0, std::floor(yLo / 10) * 10);
    const double yStep = ChartAxes::roundStep(100 - yBottom);
    ChartAxes::roundTicks(m_y, yBottom, 100 + yStep * 0.5, yStep, {}, QStringLiteral("%"));
    ChartStyle::apply(chart(), palette());

    for (auto* label : m_labels)
        delete label;
    m_labels.clear();
    m_labelAt.clear();
    // A crowded front names only its accuracy-cost frontier (and the bases), at most kMaxLabels of it spread from
    // the cheapest to the dearest; hovering names any point.
    std::vector<const Dot*> frontier;
    for (const auto& d : m_dots) {
        const bool beaten = std::any_of(m_dots.begin(), m_dots.end(), [&](const Dot& o) {
            return o.costUsd <= d.costUsd && o.accuracy >= d.accuracy &&
                   (o.costUsd < d.costUsd || o.accuracy > d.accuracy);
        });
        if (!d.base && !beaten)
            frontier.push_back(&d);
    }
    std::sort(frontier.begin(), frontier.end(), [](const Dot* a, const Dot* b) { return a->costUsd < b->costUsd; });
    QSet<int> named;
    for (size_t k = 0; k < std::min(frontier.size(), kMaxLabels); ++k)
        named.insert(
            frontier[frontier.size() <= kMaxLabels ? k : k * (frontier.size() - 1) / (kMaxLabels - 1)]->candidate);
    for (const auto& d : m_dots) {
        if (m_dots.size() > kMaxLabels && !d.base && !named.contains(d.candidate))
            continue;
        auto* label = new QGraphicsSimpleTextItem(d.label, chart());
        label->setZValue(10);
        label->setBrush(palette().color(QPalette::Text));
        label->setFont(m_x->labelsFont());
        m_labels.push_back(label);
        m_labelAt.emplace_back(xOf(d), d.accuracy * 100);
    }
    placeLabels();
}

QStringList SearchFrontChart::bandNames() const
{
    QStringList names;
    for (auto* series : m_bands) {
        if (series->count() > 0)
            names << series->name();
    }
    return names;
}

void SearchFrontChart::placeLabels()
{
    std::vector<QPointF> at;
    for (const auto& value : m_labelAt)
        at.push_back(chart()->mapToPosition(value, m_bands.front()));
    PointLabels::place(m_labels, at, chart()->plotArea());
}

} // namespace conclave::ui
