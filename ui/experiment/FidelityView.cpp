#include "experiment/FidelityView.h"

#include "experiment/FidelityChart.h"
#include "experiment/FidelityTableModel.h"
#include "timeline/TimelineColours.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QHBoxLayout>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace conclave::ui {

namespace {

QString joined(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const auto& line : lines)
        out << QString::fromStdString(line);
    return out.join(QLatin1Char('\n'));
}

QLabel* textLabel(QWidget* parent, const char* name)
{
    auto* label = new QLabel(parent);
    label->setObjectName(QString::fromLatin1(name));
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

FidelityView::FidelityView(QWidget* parent)
    : QWidget(parent), m_title(textLabel(this, "fidelityTitle")), m_limitation(textLabel(this, "fidelityLimitation")),
      m_summary(textLabel(this, "fidelitySummary")), m_notes(textLabel(this, "fidelityNotes")),
      m_chart(new FidelityChart(this)), m_model(new FidelityTableModel(this)), m_table(new QTableView(this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_limitation->setFont(bold);
    m_limitation->setMargin(6);
    m_limitation->setAutoFillBackground(true);
    m_limitation->hide();
    styleLimitation();

    m_table->setObjectName("fidelityTable");
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    // The names take what the figures leave (elided below that, whole in their tooltips).
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(FidelityReport::Design, QHeaderView::Stretch);

    // The summary and the notes side by side: the chart below gets the window's width and what height is left.
    auto* lines = new QHBoxLayout;
    lines->addWidget(m_summary, 3, Qt::AlignTop);
    lines->addWidget(m_notes, 2, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_title);
    layout->addWidget(m_limitation);
    layout->addLayout(lines);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_table);
}

void FidelityView::setReport(FidelityReport report)
{
    m_report = std::move(report);
    const auto& r = *m_report;
    m_title->setText(QString::fromStdString(r.title()));
    m_limitation->setText(QString::fromStdString(r.limitation));
    m_limitation->setVisible(!r.limitation.empty());
    m_summary->setText(joined(r.summaryLines()));
    m_notes->setText(joined(r.noteLines()));
    m_chart->setReport(&r);
    m_model->setReport(&r);
    fitTable();
}

void FidelityView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        styleLimitation();
}

// The warning amber mixed into the theme's window colour, the theme's text on it: readable in both themes.
void FidelityView::styleLimitation()
{
    QPalette p = m_limitation->palette();
    const QPalette theme = palette();
    p.setColor(QPalette::Window,
               TimelineColours::mix(theme.color(QPalette::Window), FidelityTableModel::warningColour(), 0.35));
    p.setColor(QPalette::WindowText, theme.color(QPalette::WindowText));
    m_limitation->setPalette(p);
}

// As tall as its rows (up to ten; more scroll), so the chart gets the rest.
void FidelityView::fitTable()
{
    const int rows = std::min(m_model->rowCount(), 10);
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() +
                            rows * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth() + 2);
}

} // namespace conclave::ui
