#include "run/RunToolBar.h"

#include "conclave/local/TaskSet.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace conclave::ui {

RunToolBar::RunToolBar(QWidget* parent)
    : QToolBar(tr("Run"), parent), m_input(new QLineEdit(this)), m_tasks(new QComboBox(this)),
      m_seed(new QSpinBox(this)), m_instant(new QCheckBox(tr("Instant"), this))
{
    setObjectName("runToolBar");
    m_input->setObjectName("runInput");
    m_input->setPlaceholderText(tr("Input for the run, or pick a task"));
    m_input->setClearButtonEnabled(true);
    m_input->setMinimumWidth(260);
    addWidget(m_input);
    m_tasks->setObjectName("runTask");
    m_tasks->setToolTip(tr("A task from resources/tasksets: its prompt becomes the input"));
    m_tasks->setMaximumWidth(180);
    m_tasks->addItem(tr("Free text"));
    addWidget(m_tasks);
    addWidget(new QLabel(tr(" Seed "), this));
    m_seed->setObjectName("runSeed");
    m_seed->setRange(-1, 2'000'000'000);
    m_seed->setValue(-1);
    m_seed->setSpecialValueText(tr("team seed"));
    m_seed->setToolTip(tr("The local backends' seed for this run (same seed, same run)"));
    addWidget(m_seed);
    m_instant->setObjectName("runInstant");
    m_instant->setToolTip(tr("Instant: run on the simulated (virtual) clock: the run takes only the engine's CPU time and "
                             "its finished timeline appears at once, with exact simulated latencies. Unchecked, "
                             "runs go on the real clock (scaled by time_scale) so you can watch them. Teams with "
                             "an openai backend always run on the real clock."));
    addWidget(m_instant);

    connect(m_input, &QLineEdit::returnPressed, this, &RunToolBar::runRequested);
    connect(m_tasks, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            m_input->setText(m_tasks->itemData(index, Qt::ToolTipRole).toString());
    });
}

void RunToolBar::setTasks(const TaskSet* tasks)
{
    m_tasks->clear();
    m_tasks->addItem(tr("Free text"));
    if (!tasks)
        return;
    for (const auto& task : tasks->tasks()) {
        const QString prompt = QString::fromStdString(task.prompt);
        m_tasks->addItem(QStringLiteral("%1 · %2").arg(QString::fromStdString(task.id), prompt.left(40)));
        m_tasks->setItemData(m_tasks->count() - 1, prompt, Qt::ToolTipRole);
    }
}

std::string RunToolBar::input() const
{
    return m_input->text().toStdString();
}

void RunToolBar::setInput(const QString& text)
{
    m_input->setText(text);
}

std::optional<uint64_t> RunToolBar::seed() const
{
    return m_seed->value() < 0 ? std::nullopt : std::optional<uint64_t>(uint64_t(m_seed->value()));
}

bool RunToolBar::instant() const
{
    return m_instant->isChecked();
}

void RunToolBar::setInstant(bool instant)
{
    m_instant->setChecked(instant);
}

void RunToolBar::setSeed(std::optional<uint64_t> seed)
{
    m_seed->setValue(seed ? int(*seed) : -1);
}

} // namespace conclave::ui
