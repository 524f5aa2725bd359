#include "run/ServeController.h"

#include "run/RunController.h"

#include "conclave/io/ContentHash.h"
#include "conclave/io/TeamJson.h"
#include "conclave/serve/ChatServer.h"
#include "conclave/serve/ServedTeams.h"

#include <QMetaObject>

#include <chrono>

namespace conclave::ui {

ServeController::ServeController(RunController* runs, QObject* parent) : QObject(parent), m_runs(runs)
{
    // The served runs go to the controller's store on its engine: they end before either does.
    connect(runs, &RunController::storeClosing, this, &ServeController::halt);
}

ServeController::~ServeController()
{
    halt();
}

std::string ServeController::modelIdOf(const Team& team, const std::filesystem::path& file)
{
    if (!file.empty())
        return ServedTeams::idOf(file);
    return "team-" + contentHash(teamToJsonText(team)).substr(0, 12);
}

QString ServeController::url() const
{
    return QStringLiteral("http://127.0.0.1:%1/v1").arg(m_port);
}

bool ServeController::start(const Team& team, const std::string& modelId, const std::filesystem::path& folder,
                            const Options& options, QString* error)
{
    const auto fail = [this, error](const QString& message) {
        if (error)
            *error = message;
        emit errorOccurred(message);
        return false;
    };
    if (m_state != State::Stopped)
        return fail(m_state == State::Running ? tr("already serving on port %1").arg(m_port)
                                              : tr("the server is still stopping"));
    ChatServerOptions serve;
    serve.port = options.port;
    if (!options.keysFile.isEmpty()) {
        auto keys = ApiKeys::loadFile(options.keysFile.toStdString());
        if (!keys.keys)
            return fail(QString::fromStdString(keys.error));
        serve.keys = std::move(keys.keys);
    }
    QString problem;
    RunStore* store = m_runs->store(&problem);
    if (!store)
        return fail(problem);
    Engine* engine = m_runs->engine(&problem);
    if (!engine)
        return fail(problem);
    auto teams = ServedTeams::ofTeam(team, modelId, folder, *engine);
    if (!teams.teams)
        return fail(QString::fromStdString(teams.error));
    std::string startError;
    auto server = ChatServer::start(*engine, *store, teams.teams, std::move(serve), startError);
    if (!server)
        return fail(QString::fromStdString(startError));
    // On the server's worker thread: the GUI hears it from its event loop.
    server->onRunStored([this](const ServedRequest& request) {
        QMetaObject::invokeMethod(
            this, [this, request] { emit requestServed(request); }, Qt::QueuedConnection);
    });
    m_server = std::move(server);
    m_port = m_server->port();
    m_modelId = QString::fromStdString(modelId);
    m_hasKeys = !options.keysFile.isEmpty();
    m_cancelled = 0;
    m_state = State::Running;
    emit started();
    return true;
}

void ServeController::stop()
{
    if (m_state != State::Running)
        return;
    m_state = State::Stopping;
    // The thread owns the server: the drain, then its worker's end, happen there.
    m_drain = std::thread([this, server = std::move(m_server)]() mutable {
        m_cancelled = server->drain(std::chrono::milliseconds(kDrainMs));
        server.reset(); // every onRunStored call has returned: its requestServed is queued before onDrained
        QMetaObject::invokeMethod(this, &ServeController::onDrained, Qt::QueuedConnection);
    });
}

void ServeController::onDrained()
{
    if (m_drain.joinable())
        m_drain.join();
    if (m_state != State::Stopping) // halt() got there first
        return;
    m_state = State::Stopped;
    emit stopped(m_cancelled);
}

void ServeController::halt()
{
    if (m_server) {
        m_cancelled = m_server->drain(std::chrono::milliseconds(0));
        m_server.reset();
    }
    if (m_drain.joinable())
        m_drain.join();
    if (m_state == State::Stopped)
        return;
    m_state = State::Stopped;
    emit stopped(m_cancelled);
}

} // namespace conclave::ui
