#include "run/ExperimentHistoryPanel.h"

#include "run/RunController.h"

#include "conclave/io/FileIo.h"

#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace conclave::ui {

namespace {
enum Column { NameColumn, DesignsColumn, TaskSetColumn, TrialsColumn, StatusColumn, StartedColumn };
constexpr int kIdRole = Qt::UserRole;

QString statusText(ExperimentStatus s)
{
    return QString::fromUtf8(toString(s).data(), qsizetype(toString(s).size()));
}

QString experimentsText(qsizetype n)
{
    return n == 1 ? QObject::tr("1 experiment") : QObject::tr("%1 experiments").arg(n);
}
} // namespace

ExperimentHistoryPanel::ExperimentHistoryPanel(RunController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_count(new QLabel(this)), m_list(new QTreeWidget(this)),
      m_open(new QPushButton(tr("Open"), this)), m_resume(new QPushButton(tr("Resume"), this)),
      m_export(new QPushButton(tr("Export…"), this)), m_delete(new QPushButton(tr("Delete"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    auto* bar = new QHBoxLayout;
    m_count->setObjectName("experimentCount");
    auto* refresh = new QToolButton(this);
    refresh->setObjectName("experimentRefresh");
    refresh->setText(tr("Refresh"));
    m_open->setObjectName("experimentOpen");
    m_resume->setObjectName("experimentResume");
    m_resume->setToolTip(tr("Run the trials it has not stored yet"));
    m_export->setObjectName("experimentExport");
    m_delete->setObjectName("experimentDelete");
    bar->addWidget(m_count, 1);
    bar->addWidget(refresh);
    for (auto* b : {m_open, m_resume, m_export, m_delete})
        bar->addWidget(b);
    layout->addLayout(bar);

    m_list->setObjectName("experimentList");
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setHeaderLabels({tr("Name"), tr("Designs"), tr("Task set"), tr("Trials"), tr("Status"), tr("Started")});
    m_list->header()->setStretchLastSection(true);
    layout->addWidget(m_list, 1);

    connect(refresh, &QToolButton::clicked, this, &ExperimentHistoryPanel::refresh);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &ExperimentHistoryPanel::updateButtons);
    connect(m_list, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { emit openRequested(item->data(NameColumn, kIdRole).toString()); });
    const auto withFirst = [this](void (ExperimentHistoryPanel::*signal)(const QString&)) {
        return [this, signal] {
            const auto ids = selectedIds();
            if (ids.size() == 1)
                emit(this->*signal)(ids.front());
        };
    };
    connect(m_open, &QPushButton::clicked, this, withFirst(&ExperimentHistoryPanel::openRequested));
    connect(m_resume, &QPushButton::clicked, this, withFirst(&ExperimentHistoryPanel::resumeRequested));
    connect(m_export, &QPushButton::clicked, this, &ExperimentHistoryPanel::exportSelected);
    connect(m_delete, &QPushButton::clicked, this, &ExperimentHistoryPanel::deleteSelected);
    m_list->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_list, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        if (selectedIds().isEmpty())
            return;
        QMenu* menu = contextMenu();
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_list->viewport()->mapToGlobal(at));
    });
    m_count->setText(experimentsText(0));
    updateButtons();
}

bool ExperimentHistoryPanel::refresh()
{
    QString error;
    auto experiments = m_controller->experiments(&error);
    if (!experiments) {
        m_count->setText(error);
        m_count->setToolTip(error);
        return fail(error, nullptr);
    }
    m_error.clear();
    const auto selected = selectedIds();
    m_experiments = std::move(*experiments);
    fill();
    selectIds(selected);
    m_count->setText(experimentsText(qsizetype(m_experiments.size())));
    m_count->setToolTip({});
    return true;
}

bool ExperimentHistoryPanel::fail(const QString& message, QString* error)
{
    m_error = message;
    if (error)
        *error = message;
    emit errorOccurred(message);
    return false;
}

void ExperimentHistoryPanel::fill()
{
    m_list->clear();
    for (const auto& e : m_experiments) {
        auto* item = new QTreeWidgetItem(m_list);
        const QString id = QString::fromStdString(e.id);
        item->setData(NameColumn, kIdRole, id);
        item->setText(NameColumn, QString::fromStdString(e.name));
        item->setToolTip(NameColumn, id);
        QStringList designs;
        for (const auto& d : e.designs)
            designs << QString::fromStdString(d);
        item->setText(DesignsColumn, designs.join(QStringLiteral(", ")));
        item->setToolTip(DesignsColumn, designs.join(QLatin1Char('\n')));
        item->setText(TaskSetColumn, QString::fromStdString(e.taskset));
        item->setText(TrialsColumn, QStringLiteral("%1/%2").arg(e.storedTrials).arg(e.plannedTrials));
        item->setTextAlignment(TrialsColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(StatusColumn, statusText(e.status));
        item->setToolTip(StatusColumn, QString::fromStdString(e.note));
        item->setText(StartedColumn,
                      QDateTime::fromMSecsSinceEpoch(e.startedAtMs).toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    }
    for (int c = 0; c < StartedColumn; ++c)
        m_list->resizeColumnToContents(c);
}

const ExperimentRecord* ExperimentHistoryPanel::record(const QString& id) const
{
    const std::string wanted = id.toStdString();
    for (const auto& e : m_experiments) {
        if (e.id == wanted)
            return &e;
    }
    return nullptr;
}

QStringList ExperimentHistoryPanel::selectedIds() const
{
    QStringList ids;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        const auto* item = m_list->topLevelItem(i);
        if (item->isSelected())
            ids << item->data(NameColumn, kIdRole).toString();
    }
    return ids;
}

void ExperimentHistoryPanel::selectIds(const QStringList& ids)
{
    const QSignalBlocker block(m_list);
    m_list->clearSelection();
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        auto* item = m_list->topLevelItem(i);
        item->setSelected(ids.contains(item->data(NameColumn, kIdRole).toString()));
    }
    updateButtons();
}

void ExperimentHistoryPanel::setRunningExperiment(const QString& id)
{
    m_running = id;
    updateButtons();
}

QMenu* ExperimentHistoryPanel::contextMenu()
{
    auto* menu = new QMenu(this);
    menu->setObjectName("experimentMenu");
    const auto mirror = [menu](QPushButton* button, const char* name) {
        QAction* action = menu->addAction(button->text(), button, &QPushButton::click);
        action->setObjectName(QString::fromLatin1(name));
        action->setEnabled(button->isEnabled());
    };
    mirror(m_open, "experimentMenuOpen");
    mirror(m_resume, "experimentMenuResume");
    const QStringList ids = selectedIds();
    QAction* fidelity = menu->addAction(tr("Simulator fidelity…"), this, [this, ids] { emit fidelityRequested(ids); });
    fidelity->setObjectName("experimentMenuFidelity");
    fidelity->setToolTip(tr("Calibrate the simulator on part of these experiments' tasks and predict every design "
                            "on the rest"));
    const bool idle = !ids.isEmpty() && (m_running.isEmpty() || !ids.contains(m_running));
    fidelity->setEnabled(idle);
    QAction* train = menu->addAction(tr("Train router…"), this, [this, ids] { emit trainRouterRequested(ids); });
    train->setObjectName("experimentMenuTrainRouter");
    train->setToolTip(tr("Learn which model answers which prompt right from these experiments: a router file"));
    train->setEnabled(idle);
    menu->addSeparator();
    mirror(m_export, "experimentMenuExport");
    mirror(m_delete, "experimentMenuDelete");
    return menu;
}

void ExperimentHistoryPanel::updateButtons()
{
    const auto ids = selectedIds();
    const auto* one = ids.size() == 1 ? record(ids.front()) : nullptr;
    m_open->setEnabled(one != nullptr);
    m_export->setEnabled(one != nullptr);
    // The experiment going now is the studio's to finish, not to start again.
    m_resume->setEnabled(one != nullptr && one->status != ExperimentStatus::Finished && ids.front() != m_running);
    m_delete->setEnabled(!ids.isEmpty());
}

bool ExperimentHistoryPanel::exportExperiment(const QString& id, const QString& path, QString* error)
{
    const QString format = QFileInfo(path).suffix().toLower();
    if (format != QLatin1String("json") && format != QLatin1String("csv") && format != QLatin1String("md"))
        return fail(tr("%1: the file name must end in .json, .csv or .md").arg(path), error);
    QString loadError;
    const auto report = m_controller->loadExperiment(id.toStdString(), &loadError);
    if (!report)
        return fail(loadError, error);
    const auto text = report->text(format.toStdString());
    if (!text)
        return fail(tr("%1: no export format %2").arg(path, format), error);
    if (const auto e = writeFileAtomically(path.toStdString(), *text))
        return fail(QStringLiteral("%1: %2").arg(path, QString::fromStdString(*e)), error);
    m_error.clear();
    emit statusMessage(tr("Exported experiment %1 to %2").arg(QString::fromStdString(report->record.id), path));
    return true;
}

void ExperimentHistoryPanel::exportSelected()
{
    const auto ids = selectedIds();
    if (ids.size() != 1)
        return;
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export experiment"), ids.front() + QStringLiteral(".md"),
                                                tr("Markdown (*.md);;CSV (*.csv);;JSON (*.json)"), &filter);
    if (path.isEmpty())
        return;
    // A name typed without a suffix takes the chosen filter's.
    if (QFileInfo(path).suffix().isEmpty()) {
        const auto match = QRegularExpression(QStringLiteral("\\*(\\.\\w+)")).match(filter);
        if (match.hasMatch())
            path += match.captured(1);
    }
    exportExperiment(ids.front(), path);
}

QString ExperimentHistoryPanel::deleteQuestion(const QStringList& ids) const
{
    int64_t trials = 0;
    for (const auto& id : ids) {
        if (const auto* e = record(id))
            trials += e->storedTrials;
    }
    return ids.size() == 1 ? tr("Delete 1 experiment with its %1 trial runs?").arg(trials)
                           : tr("Delete %1 experiments with their %2 trial runs?").arg(ids.size()).arg(trials);
}

void ExperimentHistoryPanel::deleteSelected()
{
    const auto ids = selectedIds();
    if (ids.isEmpty())
        return;
    if (m_confirmDeletes &&
        QMessageBox::question(this, tr("Delete experiments"), deleteQuestion(ids)) != QMessageBox::Yes)
        return;
    deleteExperiments(ids);
}

bool ExperimentHistoryPanel::deleteExperiments(const QStringList& ids, QString* error)
{
    if (!m_running.isEmpty() && ids.contains(m_running))
        return fail(tr("experiment %1 is still running; cancel it first").arg(m_running), error);
    QStringList deleted;
    QString deleteError;
    for (const auto& id : ids) {
        if (!m_controller->deleteExperiment(id.toStdString(), &deleteError))
            break;
        deleted << id;
    }
    if (!deleted.isEmpty()) {
        refresh();
        emit experimentsDeleted(deleted);
    }
    if (deleted.size() < ids.size())
        return fail(deleteError, error);
    m_error.clear();
    emit statusMessage(deleted.size() == 1 ? tr("Deleted experiment %1").arg(deleted.front())
                                           : tr("Deleted %1 experiments").arg(deleted.size()));
    return true;
}

} // namespace conclave::ui
