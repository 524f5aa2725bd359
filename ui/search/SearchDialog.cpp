#include "search/SearchDialog.h"

#include "experiment/TaskSetPicker.h"
#include "search/SearchController.h"
#include "search/SearchFrontChart.h"
#include "search/SearchFrontTable.h"
#include "search/SpaceTable.h"
#include "timeline/StatusPalette.h"

#include "conclave/experiment/ReportText.h"
#include "conclave/experiment/TaskSplit.h"
#include "conclave/search/SpaceProposal.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

namespace conclave::ui {

namespace {

constexpr std::array<Objective, kObjectiveCount> kObjectives = {
    Objective::Accuracy, Objective::Cost, Objective::P50Wall, Objective::P95Wall, Objective::Calls, Objective::Tokens};

constexpr char kDefaultTaskset[] = "mixed-small";

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

SearchDialog::SearchDialog(SearchController* controller, std::filesystem::path resourcesDir,
                           std::map<std::string, ModelProfile> catalog, QWidget* parent)
    : QDialog(parent), m_controller(controller), m_resourcesDir(std::move(resourcesDir)), m_catalog(std::move(catalog))
{
    setObjectName("searchDialog");
    setWindowTitle(tr("Search Designs"));
    m_header = new QLabel(this);
    m_header->setObjectName("searchHeader");
    m_header->setWordWrap(true);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->setChildrenCollapsible(false);
    top->addWidget(buildSetup());
    top->addWidget(buildLive());
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(top);
    split->addWidget(buildResults());
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    split->setSizes({440, 250});

    m_errors = new QLabel(this);
    m_errors->setObjectName("searchErrors");
    m_errors->setWordWrap(true);
    m_errors->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette red = m_errors->palette();
    red.setColor(QPalette::WindowText, StatusPalette::color(Status::Failed));
    m_errors->setPalette(red);
    m_errors->hide();

    auto* buttons = new QDialogButtonBox(this);
    m_start = buttons->addButton(tr("Start Search"), QDialogButtonBox::AcceptRole);
    m_stopButton = buttons->addButton(tr("Stop"), QDialogButtonBox::ActionRole);
    auto* close = buttons->addButton(QDialogButtonBox::Close);
    m_start->setObjectName("searchStart");
    m_stopButton->setObjectName("searchStop");
    m_stopButton->setToolTip(tr("End the search after the batch in flight, keeping its front so far (not measured "
                                "on validation or test)"));
    m_start->setDefault(true);
    disconnect(buttons, &QDialogButtonBox::accepted, this, nullptr);
    connect(m_start, &QPushButton::clicked, this, &SearchDialog::start);
    connect(m_stopButton, &QPushButton::clicked, this, &SearchDialog::stop);
    connect(close, &QPushButton::clicked, this, &QDialog::close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(split, 1);
    layout->addWidget(m_errors);
    layout->addWidget(buttons);

    m_resultsBox->setTitle(tr("The front (simulated)"));
    connect(m_controller, &SearchController::started, this, &SearchDialog::onStarted);
    connect(m_controller, &SearchController::progressed, this, &SearchDialog::showProgress);
    connect(m_controller, &SearchController::finished, this, &SearchDialog::onFinished);
    connect(m_space, &SpaceTable::changed, this, &SearchDialog::updateButtons);
    updateButtons();
    resize(1240, 780);
}

QWidget* SearchDialog::buildSetup()
{
    auto* setup = new QWidget(this);
    auto* spaceBox = new QGroupBox(tr("Space: the fields to vary"), setup);
    m_space = new SpaceTable(spaceBox);
    (new QVBoxLayout(spaceBox))->addWidget(m_space);

    auto* runBox = new QGroupBox(tr("Tasks and budget"), setup);
    m_tasks = new TaskSetPicker(m_resourcesDir, runBox);
    m_tasks->setSubsetShown(false); // a search splits the whole set
    m_tasks->preview()->hide();
    // A mixed set by default: a team of specialists is searched on what they specialise in.
    for (const auto& name : TaskSet::bundledNames(m_resourcesDir)) {
        if (name == kDefaultTaskset)
            m_tasks->select(QString::fromStdString(name));
    }
    m_budget = new QSpinBox(runBox);
    m_budget->setObjectName("searchBudget");
    m_budget->setRange(10, 10000000);
    m_budget->setSingleStep(500);
    m_budget->setValue(3000);
    m_budget->setSuffix(tr(" search trials"));
    m_budget->setToolTip(tr("Stop proposing after this many trials on the search part (validation and test come on "
                            "top); a budget in trials makes the search reproducible"));
    m_seed = new QSpinBox(runBox);
    m_seed->setObjectName("searchSeed");
    m_seed->setRange(0, 1000000);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("The split's, the proposals' and the bootstraps' seed"));
    m_split = new QLineEdit(QStringLiteral("0.5/0.25/0.25"), runBox);
    m_split->setObjectName("searchSplit");
    m_split->setToolTip(tr("Search / validation / test fractions of the tasks: the front is chosen on validation "
                           "and measured once on test"));
    auto* objectives = new QHBoxLayout;
    for (const auto o : kObjectives) {
        auto* box = new QCheckBox(qstr(std::string(toString(o))), runBox);
        box->setObjectName(QStringLiteral("searchObjective_%1").arg(qstr(std::string(toString(o)))));
        box->setChecked(o == Objective::Accuracy || o == Objective::Cost || o == Objective::P95Wall);
        objectives->addWidget(box);
        m_objectives[size_t(o)] = box;
    }
    objectives->addStretch(1);
    auto* form = new QFormLayout;
    auto* numbers = new QHBoxLayout;
    numbers->addWidget(m_budget, 2);
    numbers->addWidget(new QLabel(tr("Seed:"), runBox));
    numbers->addWidget(m_seed, 1);
    numbers->addWidget(new QLabel(tr("Split:"), runBox));
    numbers->addWidget(m_split, 1);
    form->addRow(tr("Budget:"), numbers);
    form->addRow(tr("Objectives:"), objectives);
    auto* run = new QVBoxLayout(runBox);
    run->addWidget(m_tasks);
    run->addLayout(form);

    auto* layout = new QVBoxLayout(setup);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(spaceBox, 1);
    layout->addWidget(runBox);
    return setup;
}

QWidget* SearchDialog::buildLive()
{
    auto* box = new QGroupBox(tr("Progress and front (simulated)"), this);
    m_status = new QLabel(tr("Not started"), box);
    m_status->setObjectName("searchStatus");
    m_status->setWordWrap(true);
    m_counts = new QLabel(box);
    m_counts->setObjectName("searchCounts");
    m_counts->setWordWrap(true);
    m_chart = new SearchFrontChart(box);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_status);
    layout->addWidget(m_counts);
    layout->addWidget(m_chart, 1);
    return box;
}

QWidget* SearchDialog::buildResults()
{
    auto* box = new QGroupBox(this);
    m_resultsBox = box;
    m_table = new SearchFrontTable(box);
    m_table->setMinimumHeight(120);
    m_open = new QPushButton(tr("Open as Team Tab"), box);
    m_compare = new QPushButton(tr("Compare with Open Team"), box);
    m_open->setObjectName("searchOpenDesign");
    m_compare->setObjectName("searchCompare");
    m_compare->setToolTip(tr("An experiment of the open team and this design on the search's test tasks"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_compare);
    buttons->addStretch(1);
    m_emptyNote = new QLabel(tr("No search yet: Start Search lists its front here as it goes, then measures it "
                                "once on the test part, beside the team as drawn."),
                             box);
    m_emptyNote->setObjectName("searchEmptyNote");
    m_emptyNote->setAlignment(Qt::AlignCenter);
    m_emptyNote->setWordWrap(true);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_emptyNote, 1);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (m_table->selectedFront() >= 0)
            emit openDesign(m_table->selectedFront());
    });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        if (m_table->selectedFront() >= 0)
            emit compareDesign(m_table->selectedFront());
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &SearchDialog::updateButtons);
    return box;
}

void SearchDialog::setOpenTeam(const QString& name, const QString& file, std::function<Team()> snapshot)
{
    m_openTeam = std::move(snapshot);
    m_file = file;
    m_header->setText(tr("Search for better designs of %1 on the simulator (local-moe). Every figure here is "
                         "simulated, not measured on real models.")
                          .arg(name));
    if (m_controller->isRunning() || !m_openTeam)
        return;
    Team team = m_openTeam();
    const std::filesystem::path path = file.toStdString();
    std::error_code ec;
    const auto absolute = file.isEmpty() ? std::filesystem::path() : std::filesystem::absolute(path, ec);
    m_space->setBases({SearchBase{file.toStdString(), absolute.lexically_normal().string(), team}});
    // A team that changed gets a new proposal, unless the user has made the table their own.
    if (!m_proposedFor || (!(*m_proposedFor == team) && !m_space->edited())) {
        m_space->setProposal(SpaceProposal::flags(team, absolute.parent_path(), m_catalog));
        m_proposedFor = std::move(team);
    }
}

std::optional<DesignSearch::Options> SearchDialog::options(QString* error) const
{
    const auto fail = [error](const QString& message) -> std::optional<DesignSearch::Options> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    DesignSearch::Options options;
    std::string e;
    std::string list;
    for (const auto o : kObjectives) {
        if (m_objectives[size_t(o)]->isChecked())
            list += (list.empty() ? "" : ",") + std::string(toString(o));
    }
    auto objectives = SearchObjectives::parse(list, e);
    if (!objectives)
        return fail(tr("objectives: %1").arg(qstr(e)));
    options.objectives = *objectives;
    const uint64_t seed = uint64_t(m_seed->value());
    auto split = TaskSplit::parse(m_split->text().trimmed().toStdString(), seed, e);
    if (!split)
        return fail(tr("split: %1").arg(qstr(e)));
    options.split = split->fractions();
    options.seed = seed;
    options.budgetTrials = m_budget->value();
    return options;
}

void SearchDialog::showErrors(const QStringList& errors)
{
    m_errors->setText(errors.join(QLatin1Char('\n')));
    m_errors->setVisible(!errors.isEmpty());
}

bool SearchDialog::start()
{
    if (m_controller->isRunning() || !m_openTeam)
        return false;
    QString error;
    auto options = this->options(&error);
    if (!options) {
        showErrors({error});
        return false;
    }
    if (!m_space->space()) { // checked after every edit
        showErrors({tr("space: %1").arg(m_space->error())});
        return false;
    }
    SearchRequest request;
    std::error_code ec;
    const auto absolute = m_file.isEmpty() ? std::filesystem::path()
                                           : std::filesystem::absolute(m_file.toStdString(), ec).lexically_normal();
    request.bases.push_back(SearchBase{m_file.toStdString(), absolute.string(), m_openTeam()});
    request.parameters = m_space->flags();
    request.taskset = m_tasks->taskset().toStdString();
    auto setup = m_controller->prepare(request);
    if (!setup.space) {
        QStringList lines;
        for (const auto& e : setup.errors)
            lines << qstr(e);
        showErrors(lines);
        return false;
    }
    // The split's parts as the search will cut them (DesignSearch::split): each needs its tasks.
    std::string e;
    if (!DesignSearch::split(*setup.tasks, options->split, options->seed, {}, e)) {
        showErrors({tr("split: %1").arg(qstr(e))});
        return false;
    }
    QStringList warnings;
    for (const auto& w : setup.warnings)
        warnings << qstr(w);
    showErrors(warnings);
    if (!m_controller->start(std::move(setup), std::move(*options), &error)) {
        showErrors({error});
        return false;
    }
    return true;
}

void SearchDialog::stop()
{
    if (!m_controller->isRunning())
        return;
    m_controller->stop();
    m_stopButton->setEnabled(false);
    m_status->setText(tr("Stopping: the batch in flight ends first…"));
}

void SearchDialog::closeEvent(QCloseEvent* event)
{
    stop();
    QDialog::closeEvent(event);
}

std::optional<Objective> SearchDialog::colourObjective() const
{
    for (const auto o : m_controller->options().objectives) {
        if (o != Objective::Accuracy && o != Objective::Cost)
            return o;
    }
    return std::nullopt;
}

void SearchDialog::updateButtons()
{
    const bool running = m_controller->isRunning();
    const bool listed = running || m_controller->result().has_value();
    m_table->setVisible(listed);
    m_emptyNote->setVisible(!listed);
    m_start->setEnabled(!running && m_space->space().has_value());
    m_stopButton->setEnabled(running);
    const int front = m_table->selectedFront();
    const auto& report = m_controller->report();
    const bool written = !running && front >= 0 && report.is_object() && report.contains("front") &&
                         size_t(front) < report["front"].size() && report["front"][size_t(front)]["file"].is_string();
    m_open->setEnabled(written);
    m_compare->setEnabled(written);
    const QString why = running ? tr("when the search has finished")
                                : tr("a search that finished writes its front's team files; one stopped does not");
    m_open->setToolTip(written ? tr("Open this design's team file in a tab beside the canvas") : why);
}

void SearchDialog::onStarted()
{
    m_table->setReport({});
    m_resultsBox->setTitle(tr("The front so far, on the search part (simulated)"));
    m_status->setText(tr("Search %1 started").arg(m_controller->searchId()));
    m_counts->clear();
    m_chart->setDots({}, colourObjective(), tr("No design has been measured on the whole search part yet."));
    updateButtons();
}

void SearchDialog::showProgress()
{
    const auto& p = m_controller->progress();
    const double rate = p.seconds > 0 ? double(p.trials) / p.seconds : 0;
    m_status->setText(tr("%1 · %2 trials in %3 (%4 trials/s)")
                          .arg(qstr(p.phase))
                          .arg(p.trials)
                          .arg(qstr(ReportText::duration(p.seconds * 1000)))
                          .arg(rate, 0, 'f', 0));
    m_counts->setText(tr("%1 candidates: %2 alive, %3 dropped (another shown better), %4 twins · %5 on the front")
                          .arg(p.candidates)
                          .arg(p.alive - p.twins)
                          .arg(p.dropped)
                          .arg(p.twins)
                          .arg(p.front.size()));
    if (!m_controller->isRunning() && m_controller->result() && m_controller->result()->test)
        return; // the end draws the front measured on test
    const auto colour = colourObjective();
    auto dots = SearchFrontChart::dotsOf(p.front, m_controller->options().objectives, colour);
    m_chart->setDots(std::move(dots), colour,
                     tr("Front so far on the search part (%1 tasks), simulated: accuracy against cost, 95 % CI bars")
                         .arg(p.front.empty() ? 0 : p.front.front().figures.tasks));
    m_table->setLiveFront(p.front, m_controller->space()->bases().front().team.name);
    m_resultsBox->setTitle(tr("The front so far, on the search part (simulated); measured once on the test part when "
                              "the search finishes"));
}

void SearchDialog::onFinished(DesignSearch::Status status)
{
    const auto& report = m_controller->report();
    const auto& result = *m_controller->result();
    m_table->setReport(report);
    m_resultsBox->setTitle(result.test ? tr("Result: the front measured once on the test part (simulated)")
                                       : tr("Result: the front so far, on the search part (simulated; not measured "
                                            "on validation or test)"));
    QString text;
    if (status == DesignSearch::Status::Failed) {
        text = tr("Search %1 failed").arg(m_controller->searchId());
        showErrors({qstr(result.error)});
    } else {
        text = tr("Search %1 %2: %3 search trials, %4 validation, %5 test in %6 (simulated)")
                   .arg(m_controller->searchId(),
                        status == DesignSearch::Status::Finished ? tr("finished") : tr("stopped"))
                   .arg(result.searchTrials)
                   .arg(result.validationTrials)
                   .arg(result.testTrials)
                   .arg(qstr(ReportText::duration(result.seconds * 1000)));
        if (!result.note.empty())
            text += QStringLiteral(" — %1").arg(qstr(result.note));
        if (!m_controller->writeError().isEmpty())
            showErrors({m_controller->writeError()});
    }
    m_status->setText(text);
    // The chart: the front as measured on test beside the bases, else (stopped) the front so far.
    if (report.is_object() && !report.value("baselines", nlohmann::ordered_json::array()).empty()) {
        const auto colour = colourObjective();
        auto dots = SearchFrontChart::dotsOf(report, colour);
        m_chart->setDots(std::move(dots), colour,
                         tr("Front measured once on the %1 test tasks, simulated: accuracy against cost, 95 % CI bars; "
                            "squares are the team as drawn")
                             .arg(report["parts"]["test"].get<int64_t>()));
    }
    updateButtons();
}

} // namespace conclave::ui
