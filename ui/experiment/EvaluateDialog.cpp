#include "experiment/EvaluateDialog.h"

#include "experiment/ExperimentController.h"
#include "experiment/TaskSetPicker.h"
#include "timeline/StatusPalette.h"
#include "timeline/TimeFormat.h"

#include "conclave/experiment/ReportText.h"
#include "conclave/experiment/TeamCostBound.h"
#include "conclave/io/TeamFile.h"
#include "conclave/util/MoneyText.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace conclave::ui {

namespace {
constexpr int kFileRole = Qt::UserRole; // a design's team file; empty for the open team
constexpr int kOpenTeamRole = Qt::UserRole + 1;

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}
} // namespace

EvaluateDialog::EvaluateDialog(ExperimentController* controller, std::filesystem::path resourcesDir, QWidget* parent)
    : QDialog(parent), m_controller(controller), m_resourcesDir(std::move(resourcesDir))
{
    setObjectName("evaluateDialog");
    setWindowTitle(tr("Evaluate Designs"));
    m_tasks = new TaskSetPicker(m_resourcesDir, this);
    auto* tasksBox = new QGroupBox(tr("Tasks"), this);
    (new QVBoxLayout(tasksBox))->addWidget(m_tasks);

    auto* columns = new QHBoxLayout;
    columns->addWidget(buildDesigns(), 2);
    columns->addWidget(tasksBox, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(buildRunOptions());
    m_errors = new QLabel(this);
    m_errors->setObjectName("evalErrors");
    m_errors->setWordWrap(true);
    m_errors->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette red = m_errors->palette();
    red.setColor(QPalette::WindowText, StatusPalette::color(Status::Failed));
    m_errors->setPalette(red);
    m_errors->hide();
    layout->addWidget(m_errors);
    layout->addWidget(buildProgress());

    auto* buttons = new QDialogButtonBox(this);
    m_start = buttons->addButton(tr("Evaluate"), QDialogButtonBox::AcceptRole);
    m_cancel = buttons->addButton(tr("Cancel Run"), QDialogButtonBox::ActionRole);
    m_results = buttons->addButton(tr("Open Results"), QDialogButtonBox::ActionRole);
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    m_start->setObjectName("evalStart");
    m_cancel->setObjectName("evalCancel");
    m_results->setObjectName("evalResults");
    m_start->setDefault(true);
    m_cancel->setEnabled(false);
    m_results->setEnabled(false);
    layout->addWidget(buttons);
    // The buttons act on their own: none of them closes the dialog but Close.
    disconnect(buttons, &QDialogButtonBox::accepted, this, nullptr);
    connect(m_start, &QPushButton::clicked, this, qOverload<>(&EvaluateDialog::evaluate));
    connect(m_cancel, &QPushButton::clicked, this, &EvaluateDialog::cancelRun);
    connect(m_results, &QPushButton::clicked, this, [this] { emit openResults(m_controller->experimentId()); });
    connect(close, &QPushButton::clicked, this, &QDialog::close);

    connect(m_tasks, &TaskSetPicker::changed, this, &EvaluateDialog::updateTrialCount);
    connect(m_controller, &ExperimentController::started, this, &EvaluateDialog::onStarted);
    connect(m_controller, &ExperimentController::progressed, this, &EvaluateDialog::showProgress);
    connect(
        m_controller, &ExperimentController::finished, this,
        [this](const QString& id, ExperimentStatus status, const QString& note) { onFinished(id, int(status), note); });
    updateTrialCount();
    resize(980, 700);
}

QWidget* EvaluateDialog::buildDesigns()
{
    auto* box = new QGroupBox(tr("Designs"), this);
    m_designs = new QListWidget(box);
    m_designs->setObjectName("evalDesigns");
    m_designs->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto* add = new QPushButton(tr("Add Team Files…"), box);
    auto* remove = new QPushButton(tr("Remove"), box);
    add->setObjectName("evalAddDesigns");
    remove->setObjectName("evalRemoveDesigns");
    m_baseline = new QComboBox(box);
    m_baseline->setObjectName("evalBaseline");
    m_baseline->setToolTip(tr("Every other design is compared with this one, task by task"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    auto* baseline = new QFormLayout;
    baseline->addRow(tr("Baseline:"), m_baseline);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_designs, 1);
    layout->addLayout(buttons);
    layout->addLayout(baseline);

    connect(add, &QPushButton::clicked, this, &EvaluateDialog::addFilesWithDialog);
    connect(remove, &QPushButton::clicked, this, &EvaluateDialog::removeSelectedDesigns);
    connect(m_designs, &QListWidget::itemChanged, this, [this] {
        updateBaselines();
        updateTrialCount();
    });
    return box;
}

QWidget* EvaluateDialog::buildRunOptions()
{
    auto* box = new QGroupBox(tr("Run"), this);
    m_seeds = new QSpinBox(box);
    m_seeds->setObjectName("evalSeeds");
    m_seeds->setRange(1, 100);
    m_seeds->setToolTip(tr("Every (design, task) runs with seeds 1 to N"));
    m_concurrency = new QSpinBox(box);
    m_concurrency->setObjectName("evalConcurrency");
    m_concurrency->setRange(1, 512);
    m_concurrency->setValue(32);
    m_concurrency->setToolTip(tr("Trials in flight at once (endpoints keep their own limits)"));
    m_clock = new QComboBox(box);
    m_clock->setObjectName("evalClock");
    m_clock->addItem(tr("Auto"), int(ClockRequest::Auto));
    m_clock->addItem(tr("Simulated"), int(ClockRequest::Virtual));
    m_clock->addItem(tr("Real"), int(ClockRequest::Real));
    m_clock->setToolTip(
        tr("Auto: designs on the local simulator run on the simulated clock, the others on the real one"));
    m_maxCost = new QDoubleSpinBox(box);
    m_maxCost->setObjectName("evalMaxCost");
    m_maxCost->setRange(0, 100000);
    m_maxCost->setDecimals(4);
    m_maxCost->setSingleStep(0.01);
    m_maxCost->setPrefix(QStringLiteral("$"));
    m_maxCost->setSpecialValueText(tr("No limit"));
    m_maxCost->setToolTip(tr("Stop starting trials once this much was spent (design and judge calls)"));
    m_name = new QLineEdit(box);
    m_name->setObjectName("evalName");
    m_name->setPlaceholderText(tr("Named after the designs and the task set"));
    m_trials = new QLabel(box);
    m_trials->setObjectName("evalTrialCount");

    auto* grid = new QGridLayout(box);
    grid->addWidget(new QLabel(tr("Seeds:"), box), 0, 0);
    grid->addWidget(m_seeds, 0, 1);
    grid->addWidget(new QLabel(tr("Concurrency:"), box), 0, 2);
    grid->addWidget(m_concurrency, 0, 3);
    grid->addWidget(new QLabel(tr("Clock:"), box), 0, 4);
    grid->addWidget(m_clock, 0, 5);
    grid->addWidget(new QLabel(tr("Cost limit:"), box), 0, 6);
    grid->addWidget(m_maxCost, 0, 7);
    grid->addWidget(new QLabel(tr("Name:"), box), 1, 0);
    grid->addWidget(m_name, 1, 1, 1, 3);
    grid->addWidget(m_trials, 1, 4, 1, 4);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(7, 1);
    connect(m_seeds, &QSpinBox::valueChanged, this, &EvaluateDialog::updateTrialCount);
    return box;
}

QWidget* EvaluateDialog::buildProgress()
{
    auto* box = new QGroupBox(tr("Progress"), this);
    m_progress = new QProgressBar(box);
    m_progress->setObjectName("evalProgress");
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QString());
    m_status = new QLabel(tr("Not started"), box);
    m_status->setObjectName("evalStatus");
    m_status->setWordWrap(true);
    m_accuracy = new QTreeWidget(box);
    m_accuracy->setObjectName("evalAccuracy");
    m_accuracy->setHeaderLabels({tr("Design"), tr("Accuracy so far"), tr("Scored")});
    m_accuracy->setRootIsDecorated(false);
    m_accuracy->setUniformRowHeights(true);
    m_accuracy->setMaximumHeight(120);
    m_accuracy->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(m_accuracy);
    return box;
}

void EvaluateDialog::setOpenTeam(const QString& name, bool modified, std::function<Team()> snapshot)
{
    m_openTeam = std::move(snapshot);
    QListWidgetItem* item = nullptr;
    for (int i = 0; i < m_designs->count() && !item; ++i)
        item = m_designs->item(i)->data(kOpenTeamRole).toBool() ? m_designs->item(i) : nullptr;
    if (!item) {
        item = new QListWidgetItem;
        item->setData(kOpenTeamRole, true);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
        m_designs->insertItem(0, item);
    }
    const QSignalBlocker quiet(m_designs);
    item->setText(modified ? tr("%1 (open team, with unsaved edits)").arg(name) : tr("%1 (open team)").arg(name));
    item->setToolTip(tr("The team as it is on screen when the evaluation starts"));
    updateBaselines();
    updateTrialCount();
}

void EvaluateDialog::addDesignFiles(const QStringList& files)
{
    const QSignalBlocker quiet(m_designs);
    for (const QString& file : files) {
        const auto loaded = loadTeamFile(file.toStdString());
        QString stem = QFileInfo(file).fileName();
        for (const char* suffix : {".team.json", ".json"}) {
            if (stem.endsWith(QLatin1String(suffix))) {
                stem.chop(int(qstrlen(suffix)));
                break;
            }
        }
        const QString name = loaded.team ? qstr(loaded.team->name) : stem;
        auto* item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(name, QFileInfo(file).fileName()), m_designs);
        item->setData(kFileRole, file);
        item->setToolTip(file);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    updateBaselines();
    updateTrialCount();
}

void EvaluateDialog::addFilesWithDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add Designs"), {},
                                                            tr("Conclave teams (*.team.json *.json);;All files (*)"));
    addDesignFiles(files);
}

void EvaluateDialog::removeSelectedDesigns()
{
    for (auto* item : m_designs->selectedItems()) {
        if (item->data(kOpenTeamRole).toBool())
            item->setCheckState(Qt::Unchecked); // the open team stays offered
        else
            delete item;
    }
    updateBaselines();
    updateTrialCount();
}

void EvaluateDialog::updateBaselines()
{
    const QString kept = m_baseline->currentText();
    const QSignalBlocker quiet(m_baseline);
    m_baseline->clear();
    for (int i = 0; i < m_designs->count(); ++i) {
        const auto* item = m_designs->item(i);
        if (item->checkState() == Qt::Checked)
            m_baseline->addItem(item->text(), item->data(kFileRole));
    }
    if (const int index = m_baseline->findText(kept); index >= 0)
        m_baseline->setCurrentIndex(index);
}

EvalRequest EvaluateDialog::request() const
{
    EvalRequest request;
    for (int i = 0; i < m_designs->count(); ++i) {
        const auto* item = m_designs->item(i);
        if (item->checkState() != Qt::Checked)
            continue;
        if (item->data(kOpenTeamRole).toBool()) {
            if (m_openTeam)
                request.designTeams.push_back(m_openTeam());
        } else {
            request.designFiles.push_back(item->data(kFileRole).toString().toStdString());
        }
    }
    // The baseline is the first design unless a file further down is chosen.
    if (m_baseline->currentIndex() > 0 && !m_baseline->currentData().toString().isEmpty())
        request.baselineFile = m_baseline->currentData().toString().toStdString();
    request.taskset = m_tasks->taskset().toStdString();
    request.domain = m_tasks->domain().toStdString();
    request.sample = m_tasks->sample();
    request.seeds.clear();
    for (int s = 1; s <= m_seeds->value(); ++s)
        request.seeds.push_back(uint64_t(s));
    request.clock = ClockRequest(m_clock->currentData().toInt());
    request.name = m_name->text().trimmed().toStdString();
    return request;
}

QString EvaluateDialog::trialCountText() const
{
    int designs = 0;
    for (int i = 0; i < m_designs->count(); ++i)
        designs += m_designs->item(i)->checkState() == Qt::Checked ? 1 : 0;
    const int64_t tasks = m_tasks->selectedCount();
    const int seeds = m_seeds->value();
    return tr("%1 × %2 × %3 = %4 trials")
        .arg(TimeFormat::count(designs, tr("design"), tr("designs")), TimeFormat::count(tasks, tr("task"), tr("tasks")),
             TimeFormat::count(seeds, tr("seed"), tr("seeds")))
        .arg(int64_t(designs) * tasks * seeds);
}

void EvaluateDialog::updateTrialCount()
{
    m_trials->setText(trialCountText());
}

void EvaluateDialog::showErrors(const std::vector<std::string>& errors)
{
    QStringList lines;
    for (const auto& e : errors)
        lines << qstr(e);
    m_errors->setText(lines.join(QLatin1Char('\n')));
    m_errors->setVisible(!lines.isEmpty());
}

bool EvaluateDialog::evaluate()
{
    if (m_controller->isRunning())
        return false;
    const EvalRequest r = request();
    if (r.designTeams.empty() && r.designFiles.empty()) {
        showErrors({tr("Choose at least one design: check the open team or add team files").toStdString()});
        return false;
    }
    return start(m_controller->prepare(r));
}

bool EvaluateDialog::evaluate(const EvalRequest& request)
{
    if (m_controller->isRunning()) {
        showErrors({tr("experiment %1 is still running").arg(m_controller->experimentId()).toStdString()});
        return false;
    }
    return start(m_controller->prepare(request));
}

bool EvaluateDialog::resume(const QString& id)
{
    if (m_controller->isRunning()) {
        showErrors({tr("experiment %1 is still running").arg(m_controller->experimentId()).toStdString()});
        return false;
    }
    return start(m_controller->prepareResume(id));
}

bool EvaluateDialog::start(SetupResult setup)
{
    if (!setup.spec) {
        showErrors(setup.errors);
        return false;
    }
    showErrors(setup.warnings);
    const auto bound = ExperimentSetup::costBound(*setup.spec);
    if (bound.paidTrials > 0 && m_confirmPaid) {
        QString text = tr("%1 call paid endpoints: typically %2, at most %3 (every retry and fallback, every round, "
                          "transcripts at their longest).")
                           .arg(TimeFormat::count(bound.paidTrials, tr("trial"), tr("trials")),
                                qstr(moneyText(bound.typicalUsd)), qstr(moneyText(bound.upperUsd)));
        for (const auto& model : bound.unpriced)
            text += QLatin1Char('\n') + tr("%1 has no price: its calls count as free.").arg(qstr(model));
        for (const auto& node : bound.uncapped)
            text += QLatin1Char('\n') + tr("%1 sets no max_tokens: its replies count as %2 tokens.")
                                            .arg(qstr(node))
                                            .arg(TeamCostBound::kAssumedMaxTokens);
        if (QMessageBox::question(this, tr("Evaluate Designs"), text + QLatin1Char('\n') + tr("Start?")) !=
            QMessageBox::Yes)
            return false;
    }
    ExperimentController::Options options;
    options.concurrency = m_concurrency->value();
    if (m_maxCost->value() > 0)
        options.maxCostUsd = m_maxCost->value();
    QString error;
    if (!m_controller->run(std::move(*setup.spec), options, &error)) {
        showErrors({error.toStdString()});
        return false;
    }
    return true;
}

void EvaluateDialog::cancelRun()
{
    m_controller->cancel();
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling: the trials in flight are being stopped…"));
}

void EvaluateDialog::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_results->setEnabled(!running && !m_controller->experimentId().isEmpty());
}

void EvaluateDialog::onStarted()
{
    setRunning(true);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m trials"));
    m_status->setText(tr("Experiment %1 started").arg(m_controller->experimentId()));
    m_accuracy->clear();
    for (const QString& design : m_controller->designNames())
        new QTreeWidgetItem(m_accuracy, {design, QStringLiteral("–"), QStringLiteral("0")});
}

void EvaluateDialog::showProgress()
{
    const auto& p = m_controller->progress();
    m_progress->setRange(0, int(std::max<int64_t>(1, p.total)));
    m_progress->setValue(int(p.done));
    QString text = tr("%1 of %2 trials · %3 failed · %4 spent")
                       .arg(p.done)
                       .arg(p.total)
                       .arg(p.failed)
                       .arg(qstr(moneyText(p.costUsd)));
    if (p.etaS && p.done < p.total)
        text += tr(" · about %1 left").arg(qstr(ReportText::duration(*p.etaS * 1000)));
    if (m_controller->isRunning())
        m_status->setText(text);
    for (int i = 0; i < m_accuracy->topLevelItemCount() && size_t(i) < p.scored.size(); ++i) {
        auto* row = m_accuracy->topLevelItem(i);
        const auto scored = p.scored[size_t(i)];
        row->setText(1, scored > 0 ? qstr(ReportText::percent(double(p.correct[size_t(i)]) / double(scored)))
                                   : QStringLiteral("–"));
        row->setText(2, QString::number(scored));
    }
}

void EvaluateDialog::onFinished(const QString& id, int status, const QString& note)
{
    setRunning(false);
    const auto& outcome = m_controller->lastOutcome();
    if (!outcome.error.empty()) {
        m_status->setText(tr("Experiment %1 could not run").arg(id));
        showErrors({outcome.error});
        return;
    }
    const auto& p = m_controller->progress();
    QString text = tr("Experiment %1 %2: %3 of %4 trials stored")
                       .arg(id, qstr(std::string(toString(ExperimentStatus(status)))))
                       .arg(p.done)
                       .arg(p.total);
    if (!note.isEmpty())
        text += QStringLiteral(" (%1)").arg(note);
    m_status->setText(text);
    emit openResults(id);
}

} // namespace conclave::ui
