#pragma once

#include "whatif/WhatIfProjection.h"

#include "conclave/model/Team.h"
#include "conclave/session/EngineResources.h"
#include "conclave/store/StoredRun.h"
#include "conclave/whatif/SpeedupProfile.h"

#include <QObject>
#include <QString>

#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace conclave::ui {

// Runs one stored run's what-ifs (core's WhatIf) for the studio, off the GUI
// thread: two threads of its own, each with an engine made from the studio's
// resources and a reader of the store opened on it. One loads the run and
// then projects the changes it is asked for; the other computes the run's
// speed-up profile once.
//
// Promises: no call blocks the GUI thread on a projection. request() only
// records the changes: while a projection runs, later requests replace each
// other, so the worker goes from the one it finishes straight to the newest
// (a slider dragged through twenty positions costs two or three projections,
// not twenty). projected() and projectionFailed() come on the GUI thread for
// the newest request only: an answer overtaken by a later request is dropped,
// never drawn. loaded() and profiled() (or profileFailed()) come once each.
// Destroying the controller waits for the projection under way and for the
// profile, if it is still being computed (it cannot be interrupted).
class WhatIfController : public QObject {
    Q_OBJECT

public:
    // `db`: the store the run is in.
    WhatIfController(EngineResources resources, std::filesystem::path db, QObject* parent = nullptr);
    ~WhatIfController() override;

    // Starts loading `run` (an id or a unique prefix) and, once loaded, profiling it; only once per controller.
    void load(const std::string& run);

    // After loaded(true): the run as stored, its team, and whether it recorded its queue waits
    // (a concurrency what-if needs them).
    const StoredRun* stored() const { return m_stored.get(); }
    const Team& team() const { return m_team; }
    bool waitsRecorded() const { return m_waitsRecorded; }
    const SpeedupProfile* profile() const { return m_profile.get(); }

    // Projects `changes` as soon as the worker is free; returns the request's number.
    uint64_t request(WhatIfChanges changes);
    uint64_t latestRequest() const { return m_latest; }
    // The last projection shown (the newest request's once it has arrived).
    const std::shared_ptr<const WhatIfProjection>& current() const { return m_current; }
    // A request has not been answered yet.
    bool isBusy() const { return m_answered < m_latest; }

signals:
    void loaded(bool ok, const QString& error);
    void projected(const std::shared_ptr<const conclave::ui::WhatIfProjection>& projection);
    void projectionFailed(const QString& error);
    void profiled();
    void profileFailed(const QString& error);

private:
    struct Loaded;
    void project(const std::string& run);
    void computeProfile(const std::string& run);
    void onLoaded(std::shared_ptr<Loaded> run, const QString& error);
    void onProjected(std::shared_ptr<const WhatIfProjection> projection, uint64_t request, const QString& error);

    EngineResources m_resources;
    std::filesystem::path m_db;
    std::thread m_projector;
    std::thread m_profiler;

    std::mutex m_mutex; // guards the three below
    std::condition_variable m_wake;
    std::optional<std::pair<uint64_t, WhatIfChanges>> m_next;
    bool m_stop = false;

    // GUI thread only.
    std::unique_ptr<const StoredRun> m_stored;
    Team m_team;
    bool m_waitsRecorded = true;
    std::unique_ptr<const SpeedupProfile> m_profile;
    uint64_t m_latest = 0;
    uint64_t m_answered = 0;
    std::shared_ptr<const WhatIfProjection> m_current;
};

} // namespace conclave::ui
