#include "experiment/ExperimentView.h"

#include "experiment/DesignAgentsView.h"
#include "experiment/DesignsModel.h"
#include "experiment/ParetoChart.h"
#include "experiment/SweepCurveChart.h"
#include "experiment/TaskMatrixView.h"

#include "conclave/analysis/TaskMatrix.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace conclave::ui {

namespace {

QString seedsText(const std::vector<uint64_t>& seeds)
{
    QStringList parts;
    for (size_t i = 0; i < seeds.size() && i < 8; ++i)
        parts << QString::number(seeds[i]);
    if (seeds.size() > 8)
        parts << QStringLiteral("… (%1 seeds)").arg(seeds.size());
    return parts.join(QStringLiteral(", "));
}

} // namespace

ExperimentView::ExperimentView(QWidget* parent)
    : QWidget(parent), m_header(new QLabel(this)), m_pareto(new ParetoChart(this)), m_curve(new SweepCurveChart(this)),
      m_charts(new QTabWidget(this)), m_designs(new DesignsModel(this)), m_sorted(new QSortFilterProxyModel(this)),
      m_designsTable(new QTableView(this)), m_matrix(new TaskMatrixView(this)), m_agents(new DesignAgentsView(this)),
      m_tabs(new QTabWidget(this))
{
    m_header->setTextFormat(Qt::PlainText);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_header->font();
    bold.setBold(true);
    m_header->setFont(bold);

    m_sorted->setSourceModel(m_designs);
    m_sorted->setSortRole(DesignsModel::SortRole);
    m_designsTable->setModel(m_sorted);
    m_designsTable->setSortingEnabled(true);
    m_designsTable->sortByColumn(-1, Qt::AscendingOrder); // spec order until a header is clicked
    m_designsTable->verticalHeader()->hide();
    m_designsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_designsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_designsTable->setWordWrap(false);

    m_tabs->addTab(m_matrix, tr("Task matrix"));
    m_tabs->addTab(m_agents, tr("Agents"));
    connect(m_agents, &DesignAgentsView::whatIfRequested, this, &ExperimentView::whatIfRun);

    // The table across the whole width (its nine columns need it), the chart beside the matrix below.
    // With one chart the tab bar hides itself, and the Pareto chart stands as it always did.
    m_charts->setDocumentMode(true);
    m_charts->setTabBarAutoHide(true);
    m_lower = new QSplitter(Qt::Horizontal, this);
    m_lower->addWidget(m_charts);
    m_lower->addWidget(m_tabs);
    m_lower->setStretchFactor(0, 4);
    m_lower->setStretchFactor(1, 5);
    m_lower->setChildrenCollapsible(false);
    m_pareto->setMinimumWidth(400);
    m_curve->setMinimumWidth(400);
    placeCharts();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_header);
    layout->addWidget(m_designsTable);
    layout->addWidget(m_lower, 1);

    connect(m_matrix, &TaskMatrixView::openRun, this, &ExperimentView::openRun);
    connect(m_matrix, &TaskMatrixView::compareRuns, this, &ExperimentView::compareRuns);
}

void ExperimentView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    setCompact(width() < kCompactWidth);
    fitDesignColumn();
}

// The names get what the figures leave, but never less than kMinDesignWidth (the table scrolls then).
void ExperimentView::fitDesignColumn()
{
    constexpr int kMinDesignWidth = 200;
    int figures = 0;
    for (int c = 0; c < m_designs->columnCount(); ++c)
        figures += c == DesignsModel::Design ? 0 : m_designsTable->columnWidth(c);
    const int room = m_designsTable->width() - 2 * m_designsTable->frameWidth() - figures;
    m_designsTable->setColumnWidth(DesignsModel::Design, std::max(kMinDesignWidth, room));
    // As tall as its rows (up to eight; more scroll) and the scroll bar when the figures overflow, so the
    // space below goes to the chart and the matrix.
    const int rows = std::min(m_designs->rowCount(), 8);
    const bool overflows = room < kMinDesignWidth;
    m_designsTable->setFixedHeight(m_designsTable->horizontalHeader()->sizeHint().height() +
                                   rows * m_designsTable->verticalHeader()->defaultSectionSize() +
                                   2 * m_designsTable->frameWidth() + 2 +
                                   (overflows ? m_designsTable->horizontalScrollBar()->sizeHint().height() : 0));
}

void ExperimentView::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    placeCharts();
}

// The charts as the first of the lower tabs (compact) or in tabs of their own beside them (wide); the first shown.
void ExperimentView::placeCharts()
{
    for (QWidget* chart : {static_cast<QWidget*>(m_curve), static_cast<QWidget*>(m_pareto)}) {
        if (const int i = m_tabs->indexOf(chart); i >= 0)
            m_tabs->removeTab(i);
        if (const int i = m_charts->indexOf(chart); i >= 0)
            m_charts->removeTab(i);
    }
    QTabWidget* into = m_compact ? m_tabs : m_charts;
    int at = 0;
    if (m_report.curve)
        into->insertTab(at++, m_curve, tr("Quality–cost curve"));
    else
        m_curve->hide();
    into->insertTab(at, m_pareto, tr("Trade-off"));
    into->setCurrentIndex(0);
    m_charts->setVisible(!m_compact);
}

QString ExperimentView::headerText(const ExperimentReport& report)
{
    const auto& r = report.record;
    QString text = tr("%1 — experiment %2 · %3 · task set %4 · %5 of %6 trials · seeds %7")
                       .arg(QString::fromStdString(r.name), QString::fromStdString(r.id),
                            QString::fromStdString(std::string(toString(r.status))), QString::fromStdString(r.taskset))
                       .arg(qlonglong(report.trials.size()))
                       .arg(r.plannedTrials)
                       .arg(seedsText(report.spec.seeds));
    text += tr(" · %1").arg(QString::fromStdString(report.provenance.text()));
    if (report.provenance.kind == Provenance::Kind::Simulated)
        text += tr(": its results come from the local-moe simulator, not from real models");
    else if (report.provenance.kind == Provenance::Kind::Replayed)
        text += tr(": the rest of the calls went to real models");
    if (!r.note.empty())
        text += tr(" · stopped: %1").arg(QString::fromStdString(r.note));
    return text;
}

void ExperimentView::setReport(ExperimentReport report)
{
    m_report = std::move(report);
    m_header->setText(headerText(m_report));
    m_pareto->setSummary(m_report.summary);
    const bool hadCurve = m_curve->curve().has_value();
    m_curve->setCurve(m_report.curve);
    if (hadCurve != m_report.curve.has_value())
        placeCharts();
    m_designs->setSummary(m_report.summary, SweepColumns::of(m_report.spec.designs));
    m_designsTable->resizeColumnsToContents();
    fitDesignColumn();
    QStringList names;
    for (const auto& d : m_report.summary.designs)
        names << QString::fromStdString(d.name);
    m_matrix->model()->setMatrix(TaskMatrix::build(m_report.record.designs, m_report.summary, m_report.trials), names,
                                 m_report.summary.baseline);
    m_matrix->fitColumns();
    m_agents->setReport(&m_report);
}

} // namespace conclave::ui
