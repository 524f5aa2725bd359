#include "timeline/CompareView.h"

#include "timeline/LanesSplitter.h"
#include "timeline/TimeAxisView.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineView.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace conclave::ui {

namespace {

QString header(const char* which, const StoredRun& run, const RunAnalysis& a)
{
    QStringList path;
    for (const auto& n : a.criticalPath)
        path << QString::fromStdString(n.str());
    return QStringLiteral("<b>%1</b> %2 · %3 · %4 · wall %5 · critical path %6: %7")
        .arg(QString::fromUtf8(which), QString::fromStdString(run.summary.id.str()).left(12),
             QString::fromStdString(run.summary.teamName).toHtmlEscaped(),
             QString::fromUtf8(toString(run.summary.status).data()), TimeFormat::duration(a.wallUs),
             TimeFormat::duration(a.criticalPathUs), path.join(QStringLiteral(" → ")).toHtmlEscaped());
}

} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), m_model(new CompareModel(this)), m_headerA(new QLabel(this)), m_headerB(new QLabel(this)),
      m_axis(new TimeAxisView(this)), m_timelineA(new TimelineView(this)), m_timelineB(new TimelineView(this)),
      m_table(new QTableView(this))
{
    auto* layout = new QVBoxLayout(this);
    m_splitter = new LanesSplitter(0.75, this); // two runs' lanes
    auto* splitter = m_splitter;
    auto* timelines = new QWidget(splitter);
    auto* tl = new QVBoxLayout(timelines);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->setSpacing(2);
    // One axis for both runs: it keeps their ranges equal, so a time is the same x in each.
    tl->addWidget(m_headerA);
    tl->addWidget(m_axis);
    tl->addWidget(m_timelineA, 1);
    tl->addWidget(m_headerB);
    tl->addWidget(m_timelineB, 1);
    splitter->addWidget(timelines);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter);
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_axis->attach(m_timelineA);
    m_axis->attach(m_timelineB);
    // Selecting an agent in one run selects it in the other.
    connect(m_timelineA, &TimelineView::spanClicked, m_timelineB, &TimelineView::selectNode);
    connect(m_timelineB, &TimelineView::spanClicked, m_timelineA, &TimelineView::selectNode);
}

void CompareView::setRuns(StoredRun a, StoredRun b)
{
    m_model->setRuns(std::move(a), std::move(b));
    m_headerA->setText(header("A", m_model->timelineA()->run(), m_model->comparison().analysisA()));
    m_headerB->setText(header("B", m_model->timelineB()->run(), m_model->comparison().analysisB()));
    const int64_t end = m_model->sharedEndUs();
    for (auto* view : {m_timelineA, m_timelineB}) {
        view->setTimeExtent(end);
        view->setModel(view == m_timelineA ? m_model->timelineA() : m_model->timelineB());
    }
    m_splitter->refit();
}

QString CompareView::criticalPathText(int which) const
{
    const auto& a = which == 0 ? m_model->comparison().analysisA() : m_model->comparison().analysisB();
    QStringList path;
    for (const auto& n : a.criticalPath)
        path << QString::fromStdString(n.str());
    return path.join(QStringLiteral(" → "));
}

} // namespace conclave::ui
