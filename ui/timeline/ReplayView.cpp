#include "timeline/ReplayView.h"

#include "timeline/RunView.h"
#include "timeline/StatusPalette.h"
#include "timeline/TimeAxisView.h"
#include "timeline/TimeFormat.h"
#include "timeline/TimelineView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace conclave::ui {

namespace {
// The slider counts milliseconds: runs are far shorter than INT_MAX ms.
constexpr int64_t kSliderUnitUs = 1000;
} // namespace

ReplayView::ReplayView(QWidget* parent)
    : QWidget(parent), m_controller(new ReplayController(this)), m_play(new QPushButton(tr("Play"), this)),
      m_speed(new QComboBox(this)), m_slider(new QSlider(Qt::Horizontal, this)), m_time(new QLabel(this)),
      m_header(new QLabel(this)), m_ruler(new TimeAxisView(this)), m_timeline(new TimelineView(this)),
      m_states(new QTableWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_play);
    for (const double s : {0.25, 0.5, 1.0, 2.0, 4.0, 8.0})
        m_speed->addItem(QStringLiteral("%1×").arg(s), s);
    m_speed->setCurrentIndex(2);
    controls->addWidget(m_speed);
    controls->addWidget(m_slider, 1);
    m_time->setMinimumWidth(150);
    controls->addWidget(m_time);
    layout->addLayout(controls);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* lanes = new QWidget(splitter);
    auto* lanesLayout = new QVBoxLayout(lanes);
    lanesLayout->setContentsMargins(0, 0, 0, 0);
    lanesLayout->setSpacing(0);
    lanesLayout->addWidget(m_ruler);
    lanesLayout->addWidget(m_timeline, 1);
    m_ruler->attach(m_timeline);
    m_ruler->setSeekable(true);
    splitter->addWidget(lanes);
    splitter->addWidget(m_states);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
    m_states->setColumnCount(2);
    m_states->setHorizontalHeaderLabels({tr("agent"), tr("state")});
    m_states->verticalHeader()->hide();
    m_states->horizontalHeader()->setStretchLastSection(true);
    m_states->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_states->setMinimumWidth(200);

    connect(m_play, &QPushButton::clicked, m_controller, &ReplayController::toggle);
    connect(m_controller, &ReplayController::playingChanged, this,
            [this](bool playing) { m_play->setText(playing ? tr("Pause") : tr("Play")); });
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this](int) { m_controller->setSpeed(m_speed->currentData().toDouble()); });
    connect(m_slider, &QSlider::sliderMoved, this, [this](int ms) { m_controller->seek(int64_t(ms) * kSliderUnitUs); });
    connect(m_controller, &ReplayController::positionChanged, m_timeline, &TimelineView::setPlayhead);
    connect(m_controller, &ReplayController::positionChanged, m_ruler, &TimeAxisView::setPlayhead);
    connect(m_ruler, &TimeAxisView::seekRequested, m_controller, &ReplayController::seek);
    connect(m_controller, &ReplayController::statesChanged, this, &ReplayView::showStates);
}

void ReplayView::setRun(StoredRun run)
{
    m_header->setText(RunView::headerText(run));
    m_model = std::make_shared<const TimelineModel>(std::move(run));
    m_timeline->setModel(m_model);
    m_states->setRowCount(m_model->laneCount());
    for (int lane = 0; lane < m_model->laneCount(); ++lane) {
        m_states->setItem(lane, 0, new QTableWidgetItem(QString::fromStdString(m_model->lane(lane).label)));
        m_states->setItem(lane, 1, new QTableWidgetItem);
    }
    m_slider->setRange(0, int(m_model->endUs() / kSliderUnitUs) + 1);
    m_controller->setModel(m_model);
}

void ReplayView::showStates(qint64 atUs, const NodeStates& states)
{
    if (!m_slider->isSliderDown())
        m_slider->setValue(int(atUs / kSliderUnitUs));
    m_time->setText(tr("%1 of %2").arg(TimeFormat::duration(atUs), TimeFormat::duration(m_controller->durationUs())));
    if (!m_model)
        return;
    for (int lane = 0; lane < m_model->laneCount(); ++lane) {
        const auto it = states.find(m_model->lane(lane).node);
        auto* item = m_states->item(lane, 1);
        if (it == states.end() || !item)
            continue;
        item->setText(StatusPalette::label(it->second));
        QColor c = StatusPalette::color(it->second);
        item->setBackground(c);
        item->setForeground(c.lightness() > 150 ? Qt::black : Qt::white);
    }
}

} // namespace conclave::ui
