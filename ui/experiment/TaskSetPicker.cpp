#include "experiment/TaskSetPicker.h"

#include "timeline/TimeFormat.h"

#include "conclave/diagnostics/Problem.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>

#include <map>

namespace conclave::ui {

namespace {
QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}
} // namespace

TaskSetPicker::TaskSetPicker(std::filesystem::path resourcesDir, QWidget* parent)
    : QWidget(parent), m_resourcesDir(std::move(resourcesDir)), m_set(new QComboBox(this)),
      m_file(new QPushButton(tr("Choose File…"), this)), m_summary(new QLabel(this)), m_preview(new QTableWidget(this)),
      m_domain(new QComboBox(this)), m_sample(new QSpinBox(this))
{
    m_set->setObjectName("evalTaskSet");
    for (const auto& name : TaskSet::bundledNames(m_resourcesDir))
        m_set->addItem(qstr(name), qstr(name));
    m_file->setObjectName("evalTaskFile");
    m_summary->setObjectName("evalTaskSummary");
    m_summary->setWordWrap(true);
    m_preview->setObjectName("evalTaskPreview");
    m_preview->setColumnCount(4);
    m_preview->setHorizontalHeaderLabels({tr("Task"), tr("Domain"), tr("Prompt"), tr("Answer")});
    m_preview->verticalHeader()->hide();
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_preview->setSelectionMode(QAbstractItemView::NoSelection);
    m_preview->setWordWrap(false);
    m_preview->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_preview->setMinimumHeight(150);
    m_domain->setObjectName("evalDomain");
    m_sample->setObjectName("evalSample");
    m_sample->setRange(0, 1000000);
    m_sample->setSpecialValueText(tr("All tasks"));
    m_sample->setSuffix(tr(" tasks"));
    m_sample->setToolTip(tr("A fixed sample of this many tasks of the domain (the same ones every time)"));

    auto* layout = new QFormLayout(this);
    m_form = layout;
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(m_set, 1);
    row->addWidget(m_file);
    layout->addRow(tr("Task set:"), row);
    layout->addRow(m_summary);
    layout->addRow(m_preview);
    layout->addRow(tr("Domain:"), m_domain);
    layout->addRow(tr("Sample:"), m_sample);

    connect(m_set, &QComboBox::activated, this, &TaskSetPicker::onSetActivated);
    connect(m_file, &QPushButton::clicked, this, &TaskSetPicker::chooseFile);
    connect(m_domain, &QComboBox::currentIndexChanged, this, &TaskSetPicker::changed);
    connect(m_sample, &QSpinBox::valueChanged, this, &TaskSetPicker::changed);
    if (m_set->count() > 0)
        select(m_set->itemData(0).toString());
}

bool TaskSetPicker::select(const QString& nameOrFile)
{
    const std::string text = nameOrFile.toStdString();
    const auto bundled = TaskSet::bundled(m_resourcesDir, text);
    const std::filesystem::path path = bundled ? *bundled : std::filesystem::path(text);
    auto loaded = TaskSet::load(path);
    const Problem* first = nullptr;
    for (const auto& p : loaded.problems) {
        if (p.isError()) {
            first = &p;
            break;
        }
    }
    if (!loaded.tasks || first) {
        m_error = first ? qstr(formatProblem(*first, path.string())) : tr("%1: cannot be read").arg(nameOrFile);
        m_summary->setText(m_taskset.isEmpty() ? m_error : tr("%1 (still using %2)").arg(m_error, m_taskset));
        emit changed();
        return false;
    }
    m_error.clear();
    m_tasks = std::move(*loaded.tasks);
    m_taskset = nameOrFile;
    int index = m_set->findData(nameOrFile);
    if (index < 0) {
        m_set->addItem(QFileInfo(nameOrFile).fileName(), nameOrFile);
        index = m_set->count() - 1;
        m_set->setItemData(index, nameOrFile, Qt::ToolTipRole);
    }
    m_set->setCurrentIndex(index);
    showTasks();
    emit changed();
    return true;
}

void TaskSetPicker::onSetActivated(int index)
{
    if (!select(m_set->itemData(index).toString())) // back to the set still loaded
        m_set->setCurrentIndex(m_set->findData(m_taskset));
}

void TaskSetPicker::chooseFile()
{
    const QString file =
        QFileDialog::getOpenFileName(this, tr("Open Task Set"), {}, tr("Task sets (*.jsonl *.csv);;All files (*)"));
    if (!file.isEmpty())
        select(file);
}

void TaskSetPicker::showTasks()
{
    std::map<std::string, int> domains;
    for (const auto& task : m_tasks->tasks())
        ++domains[task.domain];
    QStringList parts;
    for (const auto& [domain, count] : domains)
        parts << QStringLiteral("%1 %2").arg(qstr(domain)).arg(count);
    m_summary->setText(
        QStringLiteral("%1 · %2").arg(TimeFormat::count(int64_t(m_tasks->tasks().size()), tr("task"), tr("tasks")),
                                      parts.join(QStringLiteral(", "))));

    const QSignalBlocker quiet(m_domain);
    m_domain->clear();
    m_domain->addItem(tr("All domains"), QString());
    for (const auto& [domain, count] : domains)
        m_domain->addItem(QStringLiteral("%1 (%2)").arg(qstr(domain)).arg(count), qstr(domain));

    const auto& tasks = m_tasks->tasks();
    const int rows = int(std::min<size_t>(tasks.size(), kPreviewRows));
    m_preview->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const Task& t = tasks[size_t(r)];
        const QString answer = t.answer.empty() ? tr("(judged)") : qstr(t.answer);
        const QStringList cells{qstr(t.id), qstr(t.domain), qstr(t.prompt), answer};
        for (int c = 0; c < cells.size(); ++c) {
            // One line per task: a prompt's line breaks read as spaces here, and in full in the tool tip.
            auto* item = new QTableWidgetItem(cells[c].simplified());
            item->setToolTip(cells[c]);
            m_preview->setItem(r, c, item);
        }
    }
    m_preview->resizeColumnToContents(0);
    m_preview->resizeColumnToContents(1);
}

void TaskSetPicker::setSubsetShown(bool shown)
{
    m_form->setRowVisible(m_domain, shown);
    m_form->setRowVisible(m_sample, shown);
}

QString TaskSetPicker::domain() const
{
    return m_domain->currentData().toString();
}

std::optional<size_t> TaskSetPicker::sample() const
{
    if (m_sample->value() <= 0)
        return std::nullopt;
    return size_t(m_sample->value());
}

int64_t TaskSetPicker::domainCount() const
{
    if (!m_tasks)
        return 0;
    const std::string wanted = domain().toStdString();
    int64_t count = 0;
    for (const auto& task : m_tasks->tasks())
        count += (wanted.empty() || task.domain == wanted) ? 1 : 0;
    return count;
}

int64_t TaskSetPicker::selectedCount() const
{
    const int64_t all = domainCount();
    const auto n = sample();
    return n ? std::min<int64_t>(all, int64_t(*n)) : all;
}

} // namespace conclave::ui
