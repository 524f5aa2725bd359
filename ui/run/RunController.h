#pragma once

#include "run/LiveNode.h"
#include "run/RunEvent.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/export/RunExport.h"
#include "conclave/session/Engine.h"
#include "conclave/store/LiveRun.h"
#include "conclave/store/RunStore.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace conclave::ui {

class RunEventAdapter;
class RunStoreWaiter;

// Runs teams for the studio and gives it the run store.
//
// Promises: start() hands the engine an immutable snapshot of the team it is
// given (never the editable document) and attaches a RunRecorder, so every
// studio run is stored; engine events arrive only through its RunEventAdapter,
// on the GUI thread, and become liveNodes() and the signals below in the
// order the engine produced them; stop() cancels the run. finished() is
// emitted once the run has ended and is committed to the store; the commit is
// awaited off the GUI thread (RunStoreWaiter), so the GUI never blocks on it,
// and isRunning() stays true until then. The same events make liveRun(), the
// run so far as a StoredRun, which a live run tab draws. One engine per
// controller, made on the first run. It never touches a widget.
class RunController : public QObject {
    Q_OBJECT

public:
    RunController(std::filesystem::path resourcesDir, std::filesystem::path dbFile, QObject* parent = nullptr);
    ~RunController() override;

    // Problems loading models, gate or task sets; empty when all is well.
    const QString& resourceError() const { return m_resourceError; }
    // What every engine of the studio runs on (the models, the gate, the task sets), and where it was found.
    const EngineResources& resources() const { return m_resources; }
    const std::filesystem::path& resourcesDir() const { return m_resourcesDir; }
    const TaskSet* tasks() const { return m_resources.tasks.get(); }
    const std::filesystem::path& dbFile() const { return m_dbFile; }
    // Another store; refused (false) while a run is going.
    bool setDbFile(std::filesystem::path file);
    // Observers attached to every run besides the recorder and the adapter (tests, progress).
    void setExtraObservers(std::vector<RunObserver*> observers) { m_extra = std::move(observers); }

    // On the real clock, so the user can watch it (time_scale applies), or on
    // the virtual one: the finished timeline at once, in simulated time. A
    // relative models_file is found in `teamFolder` (the team file's folder;
    // empty: the current directory).
    bool start(const Team& team, const std::string& input, std::optional<uint64_t> seed, QString* error = nullptr);
    bool start(const Team& team, const std::string& input, std::optional<uint64_t> seed, ClockRequest clock,
               QString* error = nullptr, const std::filesystem::path& teamFolder = {});
    // Runs a stored run's team on its input with its seed, on the clock it used.
    bool rerun(const RunId& id, QString* error = nullptr);
    void stop();
    bool isRunning() const { return m_running; }
    const std::optional<RunId>& currentRun() const { return m_runId; }
    const std::map<NodeId, LiveNode>& liveNodes() const { return m_nodes; }
    const LiveNode* liveNode(const NodeId& node) const;
    // How long a running node has been running, by the GUI clock.
    qint64 runningMs(const NodeId& node) const;
    // The result of the last run that finished.
    const RunResult* lastResult() const { return m_result.get(); }
    // The current (or last) run so far, from the events delivered; null before the first run.
    const LiveRun* liveRun() const { return m_live.get(); }
    // The clock of the current (or last) run; none before the first run.
    std::optional<ClockKind> clockKind() const;
    // Run time now, on the current run's clock, while it runs; after it, its wall time.
    int64_t runNowUs() const;
    // The current (or last) run's output node: the node whose result is the run's answer.
    std::optional<NodeId> outputNode() const;
    RunEventAdapter* adapter() const { return m_adapter.get(); }

    // The store, opened (and created) on first use.
    RunStore* store(QString* error = nullptr);
    // The engine the studio's runs (and the teams it serves) run on, made on
    // first use; null (and why) when the resources are missing. It lives as
    // long as the store: whatever runs on it must end on storeClosing().
    Engine* engine(QString* error = nullptr);
    // Stored runs matching `filter`, newest first; an empty list when no store file exists yet.
    std::optional<std::vector<RunSummary>> listRuns(const RunFilter& filter, QString* error = nullptr);
    // How many stored runs match `filter` (its limit and offset aside).
    std::optional<int64_t> countRuns(const RunFilter& filter, QString* error = nullptr);
    // The team names of the stored runs, sorted.
    std::optional<std::vector<std::string>> teamNames(QString* error = nullptr);
    std::optional<StoredRun> loadRun(const RunId& id, bool withText, QString* error = nullptr);
    bool deleteRuns(const std::vector<RunId>& ids, QString* error = nullptr);
    bool exportRun(const RunId& id, ExportFormat format, const QString& path, QString* error = nullptr);

    // The stored experiments, newest first, without their specs; an empty list when no store file exists yet.
    std::optional<std::vector<ExperimentRecord>> experiments(QString* error = nullptr);
    // A stored experiment (an id or a unique prefix of one) with everything computed from it.
    std::optional<ExperimentReport> loadExperiment(const std::string& id, QString* error = nullptr);
    // Deletes an experiment with its trials and their runs.
    bool deleteExperiment(const std::string& id, QString* error = nullptr);

signals:
    void started(const conclave::RunId& id);
    // Each batch the adapter delivered, before it is applied (for tests and logs).
    void eventsDelivered(const std::vector<conclave::ui::RunEvent>& events);
    void nodeChanged(const conclave::NodeId& node); // its status or result
    void nodeTextChanged(const conclave::NodeId& node);
    void finished(const conclave::RunId& id, conclave::RunStatus status);
    // The store is about to go (the controller is destroyed, or another file
    // is chosen): whatever else writes to it must stop and let go first.
    void storeClosing(const QString& why);

private:
    void onEvents(const std::vector<RunEvent>& events);
    static void feed(LiveRun& live, const RunEvent& event);
    void onStored();
    void releaseRun();
    RunQueries* queries(QString* error);
    template <typename T, typename Query> std::optional<T> read(Query query, T empty, QString* error);

    std::filesystem::path m_resourcesDir;
    std::filesystem::path m_dbFile;
    EngineResources m_resources;
    QString m_resourceError;
    std::unique_ptr<RunStore> m_store;
    std::unique_ptr<RunQueries> m_queries;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<RunEventAdapter> m_adapter;
    std::unique_ptr<RunRecorder> m_recorder;
    RunStoreWaiter* m_storeWaiter;
    std::shared_ptr<Run> m_run;
    std::vector<RunObserver*> m_extra;
    std::optional<RunId> m_runId;
    bool m_running = false;
    std::map<NodeId, LiveNode> m_nodes;
    std::shared_ptr<const RunResult> m_result;
    std::unique_ptr<LiveRun> m_live;
    QElapsedTimer m_clock;
};

} // namespace conclave::ui
