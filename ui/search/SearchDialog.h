#pragma once

#include "conclave/model/Backend.h"
#include "conclave/model/Team.h"
#include "conclave/search/DesignSearch.h"

#include <QDialog>

#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>

class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace conclave::ui {

class SearchController;
class SearchFrontChart;
class SearchFrontTable;
class SpaceTable;
class TaskSetPicker;

// Run > Search Designs…: a design search of the open team on the simulator.
// The space (core's SpaceProposal of the team, edited in a SpaceTable), the
// task set, the budget in search trials, the objectives, the split and the
// seed; Start and Stop. While it runs: its phase, trials and pace, the
// candidates alive, dropped and twins, and the front so far on the search
// part (SearchFrontChart). When it ends: the front measured once on the test
// part, in the chart and in a table (SearchFrontTable) whose selected design
// can be opened as a team tab or compared with the open team.
//
// Promises: the search is the SearchController's (core's SearchSetup and
// DesignSearch, off the GUI thread): what the form asks is what `conclave
// search` would take, errors show in the dialog word for word and nothing
// starts; every figure is labelled simulated. It is not modal; closing it
// stops a running search (keeping the front so far).
class SearchDialog : public QDialog {
    Q_OBJECT

public:
    SearchDialog(SearchController* controller, std::filesystem::path resourcesDir,
                 std::map<std::string, ModelProfile> catalog, QWidget* parent = nullptr);

    // The open team: `snapshot` gives it as it is on screen; `file` is where it was opened from (empty: unsaved).
    // The space is proposed afresh when the team differs from the one last proposed for and the table is not edited.
    void setOpenTeam(const QString& name, const QString& file, std::function<Team()> snapshot);
    // Checks the form and starts the search; false (errors shown) when it cannot start.
    bool start();
    void stop();
    // The options the form asks for; unset (and why) when one does not read.
    std::optional<DesignSearch::Options> options(QString* error = nullptr) const;

    SearchController* controller() const { return m_controller; }
    SpaceTable* space() const { return m_space; }
    TaskSetPicker* tasks() const { return m_tasks; }
    QSpinBox* budget() const { return m_budget; }
    QSpinBox* seed() const { return m_seed; }
    QLineEdit* split() const { return m_split; }
    QCheckBox* objective(Objective o) const { return m_objectives[size_t(o)]; }
    QLabel* errors() const { return m_errors; }
    QLabel* status() const { return m_status; }
    QLabel* counts() const { return m_counts; }
    SearchFrontChart* frontChart() const { return m_chart; }
    SearchFrontTable* frontTable() const { return m_table; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* stopButton() const { return m_stopButton; }
    QPushButton* openButton() const { return m_open; }
    QPushButton* compareButton() const { return m_compare; }

signals:
    // The selected front design (its index in the report's "front") was asked for as a team tab.
    void openDesign(int front);
    // … or to be compared with the open team in an experiment.
    void compareDesign(int front);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    QWidget* buildSetup();
    QWidget* buildLive();
    QWidget* buildResults();
    void showErrors(const QStringList& errors);
    void onStarted();
    void showProgress();
    void onFinished(DesignSearch::Status status);
    void updateButtons();
    std::optional<Objective> colourObjective() const;

    SearchController* m_controller;
    std::filesystem::path m_resourcesDir;
    std::map<std::string, ModelProfile> m_catalog;
    std::function<Team()> m_openTeam;
    QString m_file;
    std::optional<Team> m_proposedFor;
    QLabel* m_header = nullptr;
    QGroupBox* m_resultsBox = nullptr;
    QLabel* m_emptyNote = nullptr; // before the first search, in the front table's place
    SpaceTable* m_space = nullptr;
    TaskSetPicker* m_tasks = nullptr;
    QSpinBox* m_budget = nullptr;
    QSpinBox* m_seed = nullptr;
    QLineEdit* m_split = nullptr;
    std::array<QCheckBox*, kObjectiveCount> m_objectives{};
    QLabel* m_errors = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_counts = nullptr;
    SearchFrontChart* m_chart = nullptr;
    SearchFrontTable* m_table = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stopButton = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_compare = nullptr;
};

} // namespace conclave::ui
