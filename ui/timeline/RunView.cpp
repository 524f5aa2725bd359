#include "timeline/RunView.h"

#include "timeline/LanesSplitter.h"
#include "timeline/RunSummaryView.h"
#include "timeline/TimeAxisView.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineView.h"

#include <QLabel>
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
    auto* splitter = m_splitter;
    auto* lanes = new QWidget(splitter);
    auto* lanesLayout = new QVBoxLayout(lanes);
    lanesLayout->setContentsMargins(0, 0, 0, 0);
    lanesLayout->setSpacing(0);
    lanesLayout->addWidget(m_axis);
    lanesLayout->addWidget(m_timeline, 1);
    m_axis->attach(m_timeline);
    splitter->addWidget(lanes);
    splitter->addWidget(m_summary);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
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
    m_header->setText(headerText(run));
    m_summary->setRun(run);
    m_model = std::make_shared<const TimelineModel>(std::move(run));
    m_timeline->setModel(m_model);
    m_splitter->refit();
}

} // namespace conclave::ui
