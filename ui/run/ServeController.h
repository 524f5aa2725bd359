#pragma once

#include "conclave/serve/ServedRequest.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

namespace conclave {
class ChatServer;
struct Team;
} // namespace conclave

namespace conclave::ui {

class RunController;

// `conclave serve` in the studio (Run > Serve This Team…): one ChatServer for
// one team, on loopback, on the RunController's engine and store, so every
// request is a stored run (source `serve`) the history shows.
//
// Promises: start() serves a snapshot of the team it is given (edits after it
// are not served) or refuses with the exact text of core's error (the keys
// file's, the team's, the listener's) and starts nothing; requestServed()
// arrives on the GUI thread, queued from the server's worker once the run is
// stored; stop() drains on a thread of its own (runs in flight may finish for
// kDrainMs, then are cancelled), so the GUI never waits for a run, and
// stopped() follows on the GUI thread once the port is closed and every run
// is stored. halt() drains at once and waits: for the store's closing and for
// the destructor, when nothing may outlive the engine and the store. It never
// touches a widget.
class ServeController : public QObject {
    Q_OBJECT

public:
    enum class State { Stopped, Running, Stopping };
    static constexpr int kDrainMs = 5000;

    struct Options {
        uint16_t port = 8080; // 0: any free port
        QString keysFile;     // empty: no key asked for
    };

    explicit ServeController(RunController* runs, QObject* parent = nullptr);
    ~ServeController() override;

    // The model id a team is served as: its file's (ServedTeams::idOf), or for
    // a team never saved "team-" and the first 12 hex digits of its content hash.
    static std::string modelIdOf(const Team& team, const std::filesystem::path& file);

    // Serves `team` as `modelId`, its relative files found in `folder`; false
    // (and why, also as errorOccurred) when it cannot, or when already serving.
    bool start(const Team& team, const std::string& modelId, const std::filesystem::path& folder,
               const Options& options, QString* error = nullptr);
    // Drains off the GUI thread; stopped() follows. Nothing while not running.
    void stop();
    // Drains now, cancelling the runs in flight, and waits (a drain under way too).
    void halt();

    State state() const { return m_state; }
    bool isServing() const { return m_state != State::Stopped; }
    // What the server listens on, and serves: kept after it stops, for the last figures shown.
    uint16_t port() const { return m_port; }
    const QString& modelId() const { return m_modelId; }
    bool hasKeys() const { return m_hasKeys; }
    QString url() const; // http://127.0.0.1:PORT/v1

signals:
    void started();
    void requestServed(const conclave::ServedRequest& request);
    // The port is closed and every run stored; `cancelled` runs were cut short by the drain's end.
    void stopped(int cancelled);
    void errorOccurred(const QString& error);

private:
    void onDrained();

    RunController* m_runs;
    std::unique_ptr<ChatServer> m_server; // while running
    std::thread m_drain;                  // while stopping: owns the server being drained
    std::atomic<int> m_cancelled{0};
    State m_state = State::Stopped;
    uint16_t m_port = 0;
    QString m_modelId;
    bool m_hasKeys = false;
};

} // namespace conclave::ui

Q_DECLARE_METATYPE(conclave::ServedRequest)
