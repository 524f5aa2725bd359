#pragma once

#include "conclave/search/DesignSearch.h"
#include "conclave/search/SearchSetup.h"

#include <nlohmann/json.hpp>

#include <QObject>
#include <QString>
#include <QTimer>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace conclave {
class Engine;
}

namespace conclave::ui {

class RunController;

// Runs one design search at a time for the studio (Run > Search Designs…), on
// a thread of its own: core's DesignSearch does the work on an engine this
// controller owns (made as the studio makes them: the RunController's
// resources, its store set), over a space and a task set it keeps alive
// until the thread has ended. The search is journaled in the run store as
// `conclave search` journals it (SearchStore: `conclave searches list` shows
// it, and the same search run again reads its trials back); when it finishes
// with a front, the front's team files, the space file and the report are
// written to outputDir() (beside the store: searches/ID), off the GUI thread.
//
// Promises: start() never blocks the GUI thread on a trial. The search's
// progress, reported on its thread after every rung, reaches the GUI thread
// as progressed() at most once every kProgressMs: one delivery queued at a
// time, the newest kept, a held-back one delivered by a timer (never lost);
// the last one always comes before finished(). stop() (Stop, closing the
// dialog) ends the search after the batch in flight, keeping its front so
// far; finished() comes once per search, after its thread has ended.
// Destroying the controller (or the store closing) stops a search and waits.
class SearchController : public QObject {
    Q_OBJECT

public:
    static constexpr int kProgressMs = 100;

    explicit SearchController(RunController* runs, QObject* parent = nullptr);
    ~SearchController() override;

    // Loads and checks what a request names (SearchSetup); nothing runs.
    SearchSetupResult prepare(const SearchRequest& request) const;
    // Starts a prepared search; false (and why) while one runs or when the resources are missing.
    bool start(SearchSetupResult setup, DesignSearch::Options options, QString* error = nullptr);
    void stop();
    // Stops a running search and waits for its thread.
    void halt(const QString& why);

    bool isRunning() const { return m_running; }
    // The newest progress delivered to the GUI thread, and how many deliveries there were.
    const DesignSearch::Progress& progress() const { return m_progress; }
    int progressUpdates() const { return m_updates; }
    // The running (or last) search: its id, space, task set and options.
    const QString& searchId() const { return m_id; }
    const SearchSpace* space() const { return m_space.get(); }
    const TaskSet* tasks() const { return m_tasks.get(); }
    const std::string& tasksetName() const { return m_tasksetName; }
    const DesignSearch::Options& options() const { return m_options; }
    // The last search's result and report (SearchReport::toJson, with the files written); unset while running.
    const std::optional<DesignSearch::Result>& result() const { return m_result; }
    const nlohmann::ordered_json& report() const { return m_report; }
    // Where the front's team files are written: searches/ID beside the run store.
    std::filesystem::path outputDir() const;
    // The command that reproduces it (`conclave search`, on the space file written beside the front).
    const std::string& command() const { return m_command; }
    // Why the last search's files were not all written or journaled; empty when they were.
    const QString& writeError() const { return m_writeError; }

signals:
    void started();
    void progressed();
    void finished(conclave::DesignSearch::Status status);

private:
    void onProgress(const DesignSearch::Progress& progress); // on the search's thread
    void deliver();
    void emitWhenDue();
    void emitProgress();
    void onEnded(DesignSearch::Result result, nlohmann::ordered_json report, QString writeError);
    std::string commandOf() const;

    RunController* m_runs;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<SearchSpace> m_space;
    std::shared_ptr<const TaskSet> m_tasks;
    std::string m_tasksetName;
    DesignSearch::Options m_options;
    std::unique_ptr<DesignSearch> m_search;
    std::thread m_thread;
    bool m_running = false;
    QString m_id;
    std::string m_command;
    DesignSearch::Progress m_progress;
    int m_updates = 0;
    std::optional<DesignSearch::Result> m_result;
    nlohmann::ordered_json m_report;
    QString m_writeError;
    QTimer m_held; // delivers a progress held back by kProgressMs
    std::chrono::steady_clock::time_point m_lastEmit;

    // Between the search's thread and the GUI thread.
    std::mutex m_mutex;
    DesignSearch::Progress m_pending;
    bool m_posted = false;
};

} // namespace conclave::ui
