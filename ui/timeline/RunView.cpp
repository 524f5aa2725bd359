#include "timeline/RunView.h"

#include "timeline/LanesSplitter.h"
#include "timeline/RunSummaryView.h"
#include "timeline/TimeAxisView.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimeScale.h"
#include "timeline/TimelineView.h"

#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

namespace conclave::ui {

RunView::RunView(QWidget* parent)
    : QWidget(parent), m_header(new QLabel(this)), m_axis(new TimeAxisView(this)), m_timeline(new TimelineView(this)),
      m_summary(new RunSummaryView(this))
{
    auto* layout = new QVBoxLayout(this);
    m_header->setTextFormat(Qt::RichText);
    layout->addWidget(m_header);
    m_splitter = new LanesSplitter(0.6, this);
    m_lanes = new QWidget(m_splitter);
    auto* lanesLayout = new QVBoxLayout(m_lanes);
    lanesLayout->setContentsMargins(0, 0, 0, 0);
    lanesLayout->setSpacing(0);
    lanesLayout->addWidget(m_axis);
    lanesLayout->addWidget(m_timeline, 1);
    m_axis->attach(m_timeline);
    m_splitter->addWidget(m_lanes);
    m_splitter->addWidget(m_summary);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    layout->addWidget(m_splitter, 1);
    // As short as its lanes can be: below its summary's least height the view turns compact, rather than
    // holding the split above it (the canvas) to that height.
    m_splitter->setMinimumHeight(m_lanes->minimumSizeHint().height());
    m_summaryScroll = new QScrollArea(this);
    m_summaryScroll->setWidgetResizable(true);
    m_summaryScroll->setFrameShape(QFrame::NoFrame);
    m_summaryScroll->hide();
    m_pages = new QTabWidget(this);
    m_pages->setObjectName("runPages");
    m_pages->setDocumentMode(true);
    m_pages->hide();
    layout->addWidget(m_pages, 1);
}

void RunView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateCompact();
}

void RunView::updateCompact()
{
    // The height the splitter would have: this view's, less the header and the layout's margins.
    const QMargins m = layout()->contentsMargins();
    const int room = height() - m.top() - m.bottom() - m_header->sizeHint().height() - layout()->spacing();
    const int total = room - m_splitter->handleWidth();
    setCompact(total - m_splitter->lanesHeightFor(total) < m_summary->minimumSizeHint().height());
}

void RunView::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    if (compact) {
        m_pages->addTab(m_lanes, tr("Timeline"));
        m_summaryScroll->setWidget(m_summary); // a short pane scrolls the summary
        m_pages->addTab(m_summaryScroll, tr("Summary"));
        m_pages->setCurrentIndex(0);
        m_splitter->hide();
        m_pages->show();
    } else {
        m_pages->clear();
        m_summaryScroll->takeWidget();
        m_summaryScroll->hide();
        m_splitter->insertWidget(0, m_lanes);
        m_splitter->insertWidget(1, m_summary);
        m_splitter->setStretchFactor(0, 1);
        m_splitter->setStretchFactor(1, 1);
        m_lanes->show(); // the tab widget hid the page that was not current
        m_summary->show();
        m_pages->hide();
        m_splitter->show();
        m_splitter->refit();
    }
}

QString RunView::headerText(const StoredRun& run)
{
    QString input = QString::fromStdString(run.summary.input).simplified();
    if (input.size() > 90)
        input = input.left(89) + QChar(0x2026);
    return QStringLiteral("<b>%1</b> · run %2 · %3 · seed %4 · <i>%5</i>")
        .arg(QString::fromStdString(run.summary.teamName).toHtmlEscaped(),
             QString::fromStdString(run.summary.id.str()).left(12),
             QString::fromUtf8(toString(run.summary.status).data()), QString::number(run.summary.seed),
             input.toHtmlEscaped());
}

void RunView::setRun(StoredRun run)
{
    m_live = false;
    m_header->setText(headerText(run));
    m_summary->setRun(run);
    m_model = std::make_shared<const TimelineModel>(std::move(run));
    m_timeline->setTimeExtent(0); // the run's own end
    m_timeline->setModel(m_model);
    m_splitter->refit();
    updateCompact();
}

int64_t RunView::liveExtentUs(int64_t wallUs)
{
    constexpr int64_t kLeastUs = 100'000;
    return TimeScale::roundUp(std::max(double(wallUs) * 1.1, double(kLeastUs)));
}

void RunView::showLive(StoredRun run, bool withSummary)
{
    const bool first = !m_live || !m_model;
    m_live = true;
    m_header->setText(headerText(run));
    if (withSummary || first)
        m_summary->setRun(run);
    const int64_t extent = liveExtentUs(run.summary.wallUs);
    m_model = std::make_shared<const TimelineModel>(std::move(run));
    if (first) {
        m_timeline->setModel(m_model);
        m_timeline->setTimeExtent(extent);
        m_splitter->refit();
        updateCompact();
        return;
    }
    m_timeline->setTimeExtent(extent);
    m_timeline->updateModel(m_model);
}

} // namespace conclave::ui
