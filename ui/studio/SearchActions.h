#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

class QAction;
class QTabWidget;
class QWidget;

namespace conclave::ui {

class DesignTab;
class ExperimentActions;
class FileActions;
class RunController;
class SearchController;
class SearchDialog;
class StudioFeedback;
class TeamDocument;

// Run > Search Designs…: the SearchDialog over one SearchController, offering
// the open team as it is now; the designs it found as tabs beside the canvas
// (DesignTab: the written team file loaded as File > Open loads one), each
// opened in the editor through FileActions, or compared with the open team
// through Run > Evaluate Designs… (ExperimentActions): an experiment of the
// open team and the design on the search's test tasks and seeds, whose
// results open as an experiment tab when it finishes.
class SearchActions : public QObject {
    Q_OBJECT

public:
    SearchActions(RunController* runs, TeamDocument* document, QTabWidget* centre, FileActions* files,
                  ExperimentActions* experiments, StudioFeedback* feedback, QWidget* window);

    QAction* action() const { return m_action; }
    SearchController* controller() const { return m_controller; }
    // The dialog, made on first use, offering the open team as it is now.
    SearchDialog* dialog();
    void showDialog();
    // The last search's front design `front` (its index in the report's "front") as a tab beside the canvas;
    // null (and a status message) when its team file cannot be read.
    DesignTab* openDesign(int front);
    // An experiment of the open team and the design's team file on the last search's test tasks; false (and why,
    // in the evaluation dialog or the status bar) when it does not start.
    bool compareDesign(int front);

private:
    // What a search's designs are compared on: its task set, its test tasks, its seeds.
    struct CompareOn {
        std::string taskset;
        std::vector<std::string> tasks;
        std::vector<uint64_t> seeds;
    };
    CompareOn compareOn() const;
    bool compareFile(const QString& file, const QString& label, const CompareOn& on);
    void offerOpenTeam();

    RunController* m_runs;
    TeamDocument* m_document;
    QTabWidget* m_centre;
    FileActions* m_files;
    ExperimentActions* m_experiments;
    StudioFeedback* m_feedback;
    QWidget* m_window;
    SearchController* m_controller;
    SearchDialog* m_dialog = nullptr;
    QAction* m_action;
};

} // namespace conclave::ui
