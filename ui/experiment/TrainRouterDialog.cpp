#include "experiment/TrainRouterDialog.h"

#include "experiment/RouterHeldOutModel.h"
#include "experiment/TrainRouterController.h"
#include "run/RunController.h"

#include "conclave/experiment/RouterTrainingText.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace conclave::ui {

namespace {
enum Column { NameColumn, TaskSetColumn, TrialsColumn, DesignsColumn };
constexpr int kIdRole = Qt::UserRole;

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}
} // namespace

TrainRouterDialog::TrainRouterDialog(RunController* runs, QWidget* parent)
    : QDialog(parent), m_runs(runs), m_controller(new TrainRouterController(runs, this)),
      m_experiments(new QTreeWidget(this)), m_models(new QListWidget(this)), m_modelsNote(new QLabel(this)),
      m_method(new QComboBox(this)), m_weights(new QComboBox(this)), m_holdout(new QDoubleSpinBox(this)), m_seed(new QSpinBox(this)),
      m_output(new QLineEdit(this)), m_train(new QPushButton(tr("Train"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_busy(new QProgressBar(this)), m_status(new QLabel(this)),
      m_results(new QWidget(this)), m_table(new QTableView(this)), m_figures(new RouterHeldOutModel(this)),
      m_summary(new QLabel(this)), m_warnings(new QLabel(this))
{
    setObjectName("trainRouterDialog");
    setWindowTitle(tr("Train Router"));
    m_experiments->setObjectName("trainRouterExperiments");
    m_experiments->setRootIsDecorated(false);
    m_experiments->setUniformRowHeights(true);
    m_experiments->setHeaderLabels({tr("Experiment"), tr("Task set"), tr("Trials"), tr("Designs")});
    m_experiments->header()->setStretchLastSection(true);
    m_models->setObjectName("trainRouterModels");
    m_models->setToolTip(tr("The models that gave scored answers in the checked experiments: the router predicts, "
                            "for each checked one, whether its answer to a prompt is right"));

    auto* lists = new QHBoxLayout;
    auto* experimentsBox = new QGroupBox(tr("Experiments to learn from"), this);
    (new QVBoxLayout(experimentsBox))->addWidget(m_experiments);
    auto* modelsBox = new QGroupBox(tr("Candidate models"), this);
    m_modelsNote->setObjectName("trainRouterModelsNote");
    m_modelsNote->setWordWrap(true);
    m_modelsNote->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_modelsNote->setText(tr("Check an experiment: the models that answered in it are listed here."));
    auto* modelsLayout = new QVBoxLayout(modelsBox);
    modelsLayout->addWidget(m_models, 1);
    modelsLayout->addWidget(m_modelsNote, 1);
    lists->addWidget(experimentsBox, 3);
    lists->addWidget(modelsBox, 1);

    m_busy->setRange(0, 0); // a training has no known count of steps
    m_busy->setMaximumWidth(120);
    m_busy->setTextVisible(false);
    m_status->setObjectName("trainRouterStatus");
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_train->setObjectName("trainRouterTrain");
    m_train->setDefault(true);
    m_cancel->setObjectName("trainRouterCancel");
    m_cancel->setToolTip(tr("The training under way runs to its end, then is dropped: no file is written"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_train);
    bar->addWidget(m_cancel);
    bar->addWidget(m_busy);
    bar->addWidget(m_status, 1);

    m_table->setObjectName("trainRouterTable");
    m_table->setModel(m_figures);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    for (auto* label : {m_summary, m_warnings}) {
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_summary->setObjectName("trainRouterSummary");
    m_warnings->setObjectName("trainRouterWarnings");
    auto* resultsLayout = new QVBoxLayout(m_results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addWidget(m_table);
    resultsLayout->addWidget(m_summary);
    resultsLayout->addWidget(m_warnings);
    m_results->setVisible(false);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(lists, 1);
    layout->addWidget(buildForm());
    layout->addLayout(bar);
    layout->addWidget(m_results);
    layout->addWidget(buttons);
    m_status->setText(tr("Learns which candidate model answers which prompt right from the checked experiments, "
                         "and measures it on the tasks held out; it takes seconds."));

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_train, &QPushButton::clicked, this, &TrainRouterDialog::train);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_controller->cancel();
        m_status->setText(tr("Cancelling: the training under way runs to its end, then is dropped…"));
        updateControls();
    });
    connect(m_experiments, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem*, int column) {
        if (column == NameColumn)
            readModels();
    });
    connect(m_models, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (item->checkState() == Qt::Checked)
            m_uncheckedModels.remove(item->text());
        else
            m_uncheckedModels.insert(item->text());
    });
    connect(m_controller, &TrainRouterController::modelsRead, this, &TrainRouterDialog::onModelsRead);
    connect(m_controller, &TrainRouterController::trained, this, &TrainRouterDialog::onTrained);
    updateControls();
    resize(980, 720);
}

QWidget* TrainRouterDialog::buildForm()
{
    auto* form = new QWidget(this);
    auto* layout = new QFormLayout(form);
    layout->setContentsMargins(0, 0, 0, 0);
    for (const auto method : {RouterModel::Method::Logistic, RouterModel::Method::Knn})
        m_method->addItem(QString::fromLatin1(toString(method).data(), qsizetype(toString(method).size())),
                          int(method));
    m_method->setObjectName("trainRouterMethod");
    m_method->setToolTip(tr("logistic: L2-regularised logistic regression, C by cross-validation grouped "
                            "by task; knn: the nearest training prompts"));
    m_weights->addItem(tr("chosen by cross-validation"), int(RouterTrainer::Weights::Chosen));
    m_weights->addItem(tr("separate per model"), int(RouterTrainer::Weights::Separate));
    m_weights->addItem(tr("common, each model its own bias"), int(RouterTrainer::Weights::Common));
    m_weights->setObjectName("trainRouterWeights");
    m_weights->setToolTip(tr("A logistic router's weights: one set per model, one set every model shares (what is "
                             "hard is hard for all, each model with its own ability), or whichever tells the models "
                             "apart better on held-out folds"));
    connect(m_method, &QComboBox::currentIndexChanged, this, &TrainRouterDialog::updateControls);
    m_holdout->setObjectName("trainRouterHoldout");
    m_holdout->setRange(0, 0.9);
    m_holdout->setSingleStep(0.05);
    m_holdout->setDecimals(2);
    m_holdout->setValue(0.3);
    m_holdout->setSpecialValueText(tr("none: train on every task"));
    m_holdout->setToolTip(tr("The share of the tasks the router is measured on and never trained on"));
    m_seed->setObjectName("trainRouterSeed");
    m_seed->setRange(0, INT_MAX);
    m_seed->setToolTip(tr("The seed of the split between training and held-out tasks, and of the folds"));
    m_output->setObjectName("trainRouterOutput");
    m_output->setPlaceholderText(tr("router.json"));
    auto* choose = new QPushButton(tr("Choose…"), form);
    choose->setObjectName("trainRouterChoose");
    connect(choose, &QPushButton::clicked, this, &TrainRouterDialog::chooseOutput);
    auto* file = new QHBoxLayout;
    file->addWidget(m_output, 1);
    file->addWidget(choose);
    auto* split = new QHBoxLayout;
    split->addWidget(m_holdout);
    split->addWidget(new QLabel(tr("Seed:"), form));
    split->addWidget(m_seed);
    split->addStretch(1);
    auto* method = new QHBoxLayout;
    method->addWidget(m_method);
    method->addWidget(new QLabel(tr("Weights:"), form));
    method->addWidget(m_weights);
    method->addStretch(1);
    layout->addRow(tr("Method:"), method);
    layout->addRow(tr("Held out:"), split);
    layout->addRow(tr("Router file:"), file);
    return form;
}

bool TrainRouterDialog::refreshExperiments()
{
    QString error;
    const auto records = m_runs->experiments(&error);
    if (!records) {
        m_status->setText(tr("Cannot read the experiments: %1").arg(error));
        return false;
    }
    const QStringList checked = checkedExperiments();
    {
        const QSignalBlocker block(m_experiments);
        m_experiments->clear();
        for (const auto& e : *records) {
            auto* item = new QTreeWidgetItem(m_experiments);
            const QString id = text(e.id);
            item->setData(NameColumn, kIdRole, id);
            item->setText(NameColumn, text(e.name));
            item->setToolTip(NameColumn, id);
            item->setCheckState(NameColumn, checked.contains(id) ? Qt::Checked : Qt::Unchecked);
            item->setText(TaskSetColumn, text(e.taskset));
            item->setText(TrialsColumn, QStringLiteral("%1/%2").arg(e.storedTrials).arg(e.plannedTrials));
            item->setTextAlignment(TrialsColumn, Qt::AlignRight | Qt::AlignVCenter);
            QStringList designs;
            for (const auto& d : e.designs)
                designs << text(d);
            item->setText(DesignsColumn, designs.join(QStringLiteral(", ")));
            item->setToolTip(DesignsColumn, designs.join(QLatin1Char('\n')));
        }
        for (int c = 0; c < DesignsColumn; ++c)
            m_experiments->resizeColumnToContents(c);
    }
    if (checkedExperiments() != checked)
        readModels();
    return true;
}

void TrainRouterDialog::setCheckedExperiments(const QStringList& ids)
{
    {
        const QSignalBlocker block(m_experiments);
        for (int i = 0; i < m_experiments->topLevelItemCount(); ++i) {
            auto* item = m_experiments->topLevelItem(i);
            item->setCheckState(NameColumn,
                                ids.contains(item->data(NameColumn, kIdRole).toString()) ? Qt::Checked : Qt::Unchecked);
        }
    }
    readModels();
}

QStringList TrainRouterDialog::checkedExperiments() const
{
    QStringList ids;
    for (int i = 0; i < m_experiments->topLevelItemCount(); ++i) {
        const auto* item = m_experiments->topLevelItem(i);
        if (item->checkState(NameColumn) == Qt::Checked)
            ids << item->data(NameColumn, kIdRole).toString();
    }
    return ids;
}

QStringList TrainRouterDialog::checkedModels() const
{
    QStringList names;
    for (int i = 0; i < m_models->count(); ++i) {
        if (m_models->item(i)->checkState() == Qt::Checked)
            names << m_models->item(i)->text();
    }
    return names;
}

void TrainRouterDialog::setOutput(const QString& path)
{
    m_output->setText(path);
}

QString TrainRouterDialog::output() const
{
    return m_output->text().trimmed();
}

void TrainRouterDialog::chooseOutput()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Router As"), output(),
                                                      tr("Router files (*.router.json);;JSON files (*.json)"));
    if (!path.isEmpty())
        setOutput(path);
}

void TrainRouterDialog::readModels()
{
    if (m_controller->isBusy()) {
        m_modelsStale = true; // read once the job under way ends
        return;
    }
    m_modelsStale = false;
    const QStringList ids = checkedExperiments();
    QString error;
    if (ids.isEmpty() || !m_controller->readModels(ids, &error)) {
        const QSignalBlocker block(m_models);
        m_models->clear();
        m_status->setText(ids.isEmpty() ? tr("Check the experiments to learn from.")
                                        : tr("Cannot read the models: %1").arg(error));
        m_modelsNote->setText(ids.isEmpty() ? tr("Check an experiment: the models that answered in it are listed here.")
                                            : tr("The models could not be read."));
        updateControls();
        emit modelsShown(false);
        return;
    }
    m_modelsNote->setText(tr("Reading…"));
    m_status->setText(ids.size() == 1 ? tr("Reading the models that answered in 1 experiment…")
                                      : tr("Reading the models that answered in %1 experiments…").arg(ids.size()));
    updateControls();
}

void TrainRouterDialog::onModelsRead(bool ok)
{
    updateControls();
    if (m_modelsStale) {
        readModels();
        return;
    }
    {
        const QSignalBlocker block(m_models);
        m_models->clear();
        for (const auto& name : ok ? m_controller->models() : std::vector<std::string>{}) {
            auto* item = new QListWidgetItem(text(name), m_models);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setCheckState(m_uncheckedModels.contains(item->text()) ? Qt::Unchecked : Qt::Checked);
        }
    }
    m_modelsNote->setText(ok ? tr("No model answered on its own in these experiments.")
                             : tr("The models could not be read."));
    updateControls();
    if (!ok)
        m_status->setText(tr("Cannot read the models: %1").arg(m_controller->error()));
    else if (m_models->count() == 0)
        m_status->setText(tr("No model gave a scored answer in these experiments: a router learns from trials "
                             "whose experts answered tasks with reference answers."));
    else
        m_status->setText(tr("%1 models answered in these experiments: uncheck those the router must not choose, "
                             "then Train.")
                              .arg(m_models->count()));
    emit modelsShown(ok);
}

bool TrainRouterDialog::train()
{
    RouterTraining::Options options;
    const QStringList ids = checkedExperiments();
    for (const QString& id : ids)
        options.experiments.push_back(id.toStdString());
    // Models read for other experiments (or not read) are not offered: every answering model is a candidate.
    if (m_controller->modelsOf() == ids && m_models->count() > 0) {
        const QStringList names = checkedModels();
        if (names.isEmpty()) {
            m_status->setText(tr("Cannot train: no model is checked (a router chooses between two or more)"));
            return false;
        }
        for (const QString& name : names)
            options.models.push_back(name.toStdString());
    }
    options.method = RouterModel::Method(m_method->currentData().toInt());
    options.weights = RouterTrainer::Weights(m_weights->currentData().toInt());
    options.holdout = m_holdout->value();
    options.seed = uint64_t(m_seed->value());
    QString error;
    if (!m_controller->train(options, output(), &error)) {
        m_status->setText(tr("Cannot train: %1").arg(error));
        return false;
    }
    m_clock.start();
    m_status->setText(tr("Training…"));
    updateControls();
    return true;
}

void TrainRouterDialog::onTrained(bool ok)
{
    updateControls();
    const auto& result = m_controller->result();
    m_figures->setRouter(ok ? &result->model : nullptr);
    m_results->setVisible(ok);
    if (ok) {
        const RouterModel& model = result->model;
        QStringList lines{tr("Wrote %1: %2").arg(m_controller->output(), text(RouterTrainingText::trained(model)))};
        for (const auto& line : {RouterTrainingText::neighbours(model), RouterTrainingText::pooling(model),
                                 RouterTrainingText::heldOut(model),
                                 RouterTrainingText::meanAuroc(*result), result->domainNote}) {
            if (line)
                lines << text(*line);
        }
        m_summary->setText(lines.join(QLatin1Char('\n')));
        QStringList warnings;
        for (const auto& w : result->warnings)
            warnings << tr("Warning: %1").arg(text(w));
        m_warnings->setText(warnings.join(QLatin1Char('\n')));
        m_warnings->setVisible(!warnings.isEmpty());
        fitTable();
        m_status->setText(tr("Trained in %1 s.").arg(double(m_clock.elapsed()) / 1000.0, 0, 'f', 1));
    } else {
        m_status->setText(m_controller->error() == QLatin1String("cancelled")
                              ? tr("Cancelled: no file was written.")
                              : tr("Training failed: %1").arg(m_controller->error()));
    }
    if (m_modelsStale)
        readModels();
    emit trainedRouter(ok);
}

void TrainRouterDialog::fitTable()
{
    // As tall as its rows, up to ten: no empty pane under a few models.
    int height = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    for (int row = 0; row < std::min(m_figures->rowCount(), 10); ++row)
        height += m_table->verticalHeader()->sectionSize(row);
    m_table->setFixedHeight(height);
}

void TrainRouterDialog::updateControls()
{
    const bool training = m_controller->isTraining();
    m_train->setEnabled(!m_controller->isBusy());
    for (QWidget* w : std::initializer_list<QWidget*>{m_experiments, m_models, m_method, m_holdout, m_seed, m_output})
        w->setEnabled(!training);
    m_weights->setEnabled(!training && RouterModel::Method(m_method->currentData().toInt()) == RouterModel::Method::Logistic);
    m_cancel->setVisible(training);
    m_cancel->setEnabled(training && !m_controller->isCancelling());
    m_busy->setVisible(m_controller->isBusy());
    m_models->setVisible(m_models->count() > 0);
    m_modelsNote->setVisible(m_models->count() == 0);
}

void TrainRouterDialog::done(int result)
{
    if (m_controller->isTraining())
        m_controller->cancel();
    QDialog::done(result);
}

} // namespace conclave::ui
