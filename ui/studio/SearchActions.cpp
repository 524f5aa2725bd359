#include "studio/SearchActions.h"

#include "studio/ExperimentActions.h"
#include "studio/FileActions.h"
#include "studio/StudioAction.h"
#include "studio/StudioFeedback.h"

#include "document/TeamDocument.h"
#include "experiment/EvaluateDialog.h"
#include "run/RunController.h"
#include "search/DesignTab.h"
#include "search/SearchController.h"
#include "search/SearchDialog.h"
#include "search/SearchFrontTable.h"

#include "conclave/util/MoneyText.h"

#include <QAction>
#include <QTabWidget>

namespace conclave::ui {

namespace {
QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}
} // namespace

SearchActions::SearchActions(RunController* runs, TeamDocument* document, QTabWidget* centre, FileActions* files,
                             ExperimentActions* experiments, StudioFeedback* feedback, QWidget* window)
    : QObject(window), m_runs(runs), m_document(document), m_centre(centre), m_files(files), m_experiments(experiments),
      m_feedback(feedback), m_window(window), m_controller(new SearchController(runs, this)),
      m_action(makeStudioAction(this, "actionSearchDesigns", tr("Search &Designs…"), QKeySequence(),
                                &SearchActions::showDialog))
{
    m_action->setToolTip(tr("Search for better designs of the open team on the simulator: several objectives, "
                            "paired error bars, a test part it never tuned on"));
    connect(m_controller, &SearchController::finished, this, [this](DesignSearch::Status status) {
        const QString word = status == DesignSearch::Status::Finished  ? tr("finished")
                             : status == DesignSearch::Status::Stopped ? tr("stopped")
                                                                       : tr("failed");
        m_feedback->showStatus(tr("Search %1 %2").arg(m_controller->searchId(), word));
    });
}

SearchDialog* SearchActions::dialog()
{
    if (!m_dialog) {
        std::map<std::string, ModelProfile> catalog = m_runs->resources().localModels;
        m_dialog = new SearchDialog(m_controller, m_runs->resourcesDir(), std::move(catalog), m_window);
        connect(m_dialog, &SearchDialog::openDesign, this, &SearchActions::openDesign);
        connect(m_dialog, &SearchDialog::compareDesign, this, &SearchActions::compareDesign);
        // The open team's snapshot follows the document while the dialog stays open.
        connect(m_document, &TeamDocument::modifiedChanged, m_dialog, [this] { offerOpenTeam(); });
        connect(m_document, &TeamDocument::teamReset, m_dialog, [this] { offerOpenTeam(); });
        connect(m_document, &TeamDocument::settingsChanged, m_dialog, [this] { offerOpenTeam(); });
    }
    offerOpenTeam();
    return m_dialog;
}

void SearchActions::offerOpenTeam()
{
    const Team& team = m_document->team();
    m_dialog->setOpenTeam(team.name.empty() ? m_document->displayName() : qstr(team.name), m_document->filePath(),
                          [document = m_document] { return document->team(); });
}

void SearchActions::showDialog()
{
    auto* d = dialog();
    d->show();
    d->raise();
    d->activateWindow();
}

SearchActions::CompareOn SearchActions::compareOn() const
{
    CompareOn on;
    const auto& result = m_controller->result();
    const auto* tasks = m_controller->tasks();
    if (!result || !tasks)
        return on;
    on.taskset = m_controller->tasksetName();
    for (const size_t t : result->parts.test)
        on.tasks.push_back(tasks->tasks()[t].id);
    on.seeds = m_controller->options().trialSeeds;
    return on;
}

DesignTab* SearchActions::openDesign(int front)
{
    const auto& report = m_controller->report();
    if (!report.is_object() || front < 0 || size_t(front) >= report["front"].size() ||
        !report["front"][size_t(front)]["file"].is_string()) {
        m_feedback->showStatus(tr("That design has no team file: only a search that finished writes them"));
        return nullptr;
    }
    const auto& design = report["front"][size_t(front)];
    const QString file = qstr(design["file"].get<std::string>());
    QString summary = tr("Search %1, design #%2 (simulated): %3")
                          .arg(m_controller->searchId())
                          .arg(design["candidate"].get<int>())
                          .arg(SearchFrontTable::parametersText(design));
    if (design.contains("test")) {
        const auto& t = design["test"];
        summary += tr(" — on %1 test tasks: accuracy %2%, %3 per trial")
                       .arg(t["tasks"].get<int64_t>())
                       .arg(100 * t["accuracy"].get<double>(), 0, 'f', 1)
                       .arg(qstr(moneyText(t["cost_usd"].get<double>())));
    }
    auto* tab = new DesignTab(m_document->localModels());
    if (const QString error = tab->load(file, summary); !error.isEmpty()) {
        delete tab;
        m_feedback->showStatus(tr("Cannot open %1: %2").arg(file, error.section('\n', 0, 0)));
        return nullptr;
    }
    const QString label = QStringLiteral("#%1").arg(design["candidate"].get<int>());
    connect(tab, &DesignTab::openInEditor, this, [this](const QString& path) {
        if (m_files->openFile(path, m_feedback->isInteractive()))
            m_centre->setCurrentIndex(0);
    });
    connect(tab, &DesignTab::compareRequested, this,
            [this, label, on = compareOn()](const QString& path) { compareFile(path, label, on); });
    m_centre->addTab(tab, tr("Design %1").arg(label));
    m_centre->setTabToolTip(m_centre->indexOf(tab), file);
    m_centre->setCurrentWidget(tab);
    return tab;
}

bool SearchActions::compareDesign(int front)
{
    const auto& report = m_controller->report();
    if (!report.is_object() || front < 0 || size_t(front) >= report["front"].size() ||
        !report["front"][size_t(front)]["file"].is_string())
        return false;
    const auto& design = report["front"][size_t(front)];
    return compareFile(qstr(design["file"].get<std::string>()),
                       QStringLiteral("#%1").arg(design["candidate"].get<int>()), compareOn());
}

bool SearchActions::compareFile(const QString& file, const QString& label, const CompareOn& on)
{
    if (on.tasks.empty()) {
        m_feedback->showStatus(tr("Nothing to compare on: the search measured no test tasks"));
        return false;
    }
    EvalRequest request;
    request.designTeams.push_back(m_document->team());
    request.designFiles.push_back(file.toStdString());
    request.taskset = on.taskset;
    request.taskIds = on.tasks;
    request.seeds = on.seeds;
    request.clock = ClockRequest::Virtual;
    const Team& team = m_document->team();
    request.name = (team.name.empty() ? m_document->displayName().toStdString() : team.name) + " vs search design " +
                   label.toStdString() + " (test tasks)";
    auto* evaluate = m_experiments->dialog();
    evaluate->show();
    evaluate->raise();
    return evaluate->evaluate(request);
}

} // namespace conclave::ui
