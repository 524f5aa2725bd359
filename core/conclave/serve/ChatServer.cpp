#include "conclave/serve/ChatServer.h"

#include "conclave/serve/ChatServerRequest.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace conclave {

using nlohmann::ordered_json;
using SteadyClock = std::chrono::steady_clock;

namespace {

std::string pathOf(const std::string& target)
{
    return target.substr(0, target.find('?'));
}

} // namespace

std::unique_ptr<ChatServer> ChatServer::start(Engine& engine, RunStore& store, std::shared_ptr<const ServedTeams> teams,
                                              ChatServerOptions options, std::string& error)
{
    if (!teams || teams->all().empty()) {
        error = "no team to serve";
        return nullptr;
    }
    const bool loopback = options.host == "127.0.0.1" || options.host == "::1" || options.host == "localhost";
    if (!loopback && !options.keys) {
        error = "--host " + options.host +
                " is reachable from other machines: give --api-keys-file FILE or --api-key-env VAR";
        return nullptr;
    }
    if (options.host == "localhost")
        options.host = "127.0.0.1";
    std::unique_ptr<ChatServer> server(new ChatServer(engine, store, std::move(teams), std::move(options)));
    HttpServerOptions http;
    http.host = server->m_options.host;
    http.port = server->m_options.port;
    http.threads = server->m_options.ioThreads;
    http.idleTimeout = server->m_options.idleTimeout;
    http.readTimeout = server->m_options.headerTimeout;
    http.maxBodyBytes = server->m_options.maxBodyBytes;
    auto* self = server.get();
    // What the HTTP layer refuses before a request is whole (a body too large,
    // a header too long, a malformed request) is counted and logged too.
    http.refusal = [self](int status, const std::string& message) {
        auto e = ServeError::badRequest(message);
        e.status = status;
        if (status == 413)
            e.code = "request_too_large";
        self->m_metrics.request({}, status);
        self->m_log.write({{"status", status}, {"error", message}});
        return std::make_pair(std::string("application/json"), e.body());
    };
    server->m_http = HttpServer::start(
        std::move(http),
        [self](HttpServerRequest request, std::shared_ptr<HttpExchange> exchange) {
            self->handle(std::move(request), std::move(exchange));
        },
        error);
    if (!server->m_http)
        return nullptr;
    return server;
}

ChatServer::ChatServer(Engine& engine, RunStore& store, std::shared_ptr<const ServedTeams> teams,
                       ChatServerOptions options)
    : m_engine(engine), m_store(store), m_options(std::move(options)), m_log(m_options.accessLog),
      m_limits([&store](const std::string& keyName, int64_t dayStartMs) -> std::optional<double> {
          std::string error;
          auto reader = store.reader(error);
          if (!reader)
              return std::nullopt;
          return reader->serveSpendSince(keyName, dayStartMs, error);
      }),
      m_teams(std::move(teams))
{
}

ChatServer::~ChatServer()
{
    if (m_http)
        drain(std::chrono::milliseconds(0));
}

uint16_t ChatServer::port() const
{
    return m_http->port();
}

void ChatServer::setTeams(std::shared_ptr<const ServedTeams> teams)
{
    std::lock_guard lock(m_mutex);
    m_teams = std::move(teams);
}

std::shared_ptr<const ServedTeams> ChatServer::teams() const
{
    std::lock_guard lock(m_mutex);
    return m_teams;
}

void ChatServer::onRunStored(std::function<void(const ServedRequest&)> callback)
{
    std::lock_guard lock(m_mutex);
    m_onRunStored = std::move(callback);
}

void ChatServer::handle(HttpServerRequest request, std::shared_ptr<HttpExchange> exchange)
{
    const auto arrived = SteadyClock::now();
    const auto path = pathOf(request.target);
    const auto only = [&](const char* method) {
        if (request.method == method)
            return true;
        ServeError e = ServeError::badRequest(request.method + " " + path + ": use " + method);
        e.status = 405;
        e.code = "method_not_allowed";
        refuse(exchange, e, {}, request, {});
        return false;
    };
    if (path == "/healthz") {
        if (!only("GET"))
            return;
        ordered_json health;
        int status = 200;
        {
            std::lock_guard lock(m_mutex);
            status = m_draining ? 503 : 200;
            health = ordered_json{{"status", m_draining ? "draining" : "ok"},
                                  {"teams", m_teams->all().size()},
                                  {"running", m_active.size()},
                                  {"queued", m_queue.size()}};
        }
        sendJson(*exchange, status, health.dump() + "\n");
        m_metrics.request({}, status);
        m_log.write({{"method", request.method}, {"path", path}, {"status", status}});
        return;
    }
    if (path == "/metrics") {
        if (!only("GET"))
            return;
        HttpResponseHead head;
        head.headers = {{"Content-Type", "text/plain; version=0.0.4; charset=utf-8"}};
        m_metrics.request({}, 200);
        exchange->respond(std::move(head), m_metrics.text());
        m_log.write({{"method", request.method}, {"path", path}, {"status", 200}});
        return;
    }
    if (path == "/v1/models") {
        if (only("GET"))
            models(request, exchange);
        return;
    }
    if (path == "/v1/chat/completions") {
        if (only("POST"))
            completions(request, exchange, arrived);
        return;
    }
    ServeError e = ServeError::badRequest("no such endpoint: " + request.method + " " + path +
                                          " (this server has GET /v1/models, POST /v1/chat/completions, GET "
                                          "/healthz and GET /metrics)");
    e.status = 404;
    e.code = "not_found";
    refuse(exchange, e, {}, request, {});
}

std::variant<const ApiKey*, ServeError> ChatServer::authorise(const HttpServerRequest& request) const
{
    if (!m_options.keys)
        return static_cast<const ApiKey*>(nullptr);
    ServeError e;
    e.status = 401;
    e.code = "invalid_api_key";
    const auto it = request.headers.find("authorization");
    std::string_view value = it == request.headers.end() ? std::string_view() : std::string_view(it->second);
    const std::string_view scheme = "Bearer ";
    const bool bearer = value.size() > scheme.size() &&
                        std::equal(scheme.begin(), scheme.end(), value.begin(), [](char a, char b) {
                            return std::tolower(static_cast<unsigned char>(a)) ==
                                   std::tolower(static_cast<unsigned char>(b));
                        });
    if (!bearer) {
        e.message = "missing API key: send the header \"Authorization: Bearer KEY\"";
        return e;
    }
    value.remove_prefix(scheme.size());
    if (const auto* key = m_options.keys->find(value))
        return key;
    e.message = "incorrect API key";
    return e;
}

void ChatServer::refuse(const std::shared_ptr<HttpExchange>& exchange, const ServeError& error, const std::string& team,
                        const HttpServerRequest& request, const std::string& keyName)
{
    error.sendTo(*exchange);
    m_metrics.request(team, error.status);
    ordered_json line{{"method", request.method}, {"path", pathOf(request.target)}, {"status", error.status}};
    if (!team.empty())
        line["team"] = team;
    if (!keyName.empty())
        line["key"] = keyName;
    line["error"] = error.message;
    m_log.write(std::move(line));
}

void ChatServer::models(const HttpServerRequest& request, const std::shared_ptr<HttpExchange>& exchange)
{
    auto authorised = authorise(request);
    if (auto* error = std::get_if<ServeError>(&authorised)) {
        refuse(exchange, *error, {}, request, {});
        return;
    }
    const ApiKey* key = std::get<const ApiKey*>(authorised);
    const auto teams = this->teams();
    ordered_json data = ordered_json::array();
    for (const auto& team : teams->all()) {
        if (!key || key->allows(team.id))
            data.push_back(ordered_json{{"id", team.id}, {"object", "model"}, {"created", 0}, {"owned_by", "conclave"}});
    }
    sendJson(*exchange, 200, ordered_json{{"object", "list"}, {"data", std::move(data)}}.dump() + "\n");
    m_metrics.request({}, 200);
    ordered_json line{{"method", request.method}, {"path", "/v1/models"}, {"status", 200}};
    if (key)
        line["key"] = key->name;
    m_log.write(std::move(line));
}

void ChatServer::completions(HttpServerRequest& http, const std::shared_ptr<HttpExchange>& exchange,
                             SteadyClock::time_point arrived)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_draining) {
            refuse(exchange, ServeError::server(503, "the server is shutting down", "draining", 5), {}, http, {});
            return;
        }
    }
    auto authorised = authorise(http);
    if (auto* error = std::get_if<ServeError>(&authorised)) {
        refuse(exchange, *error, {}, http, {});
        return;
    }
    const ApiKey* key = std::get<const ApiKey*>(authorised);
    const std::string keyName = key ? key->name : std::string();
    auto parsed = ChatCompletionRequest::parse(http.body);
    if (auto* error = std::get_if<ServeError>(&parsed)) {
        refuse(exchange, *error, {}, http, keyName);
        return;
    }
    auto request = std::make_shared<Request>();
    request->body = std::move(std::get<ChatCompletionRequest>(parsed));
    request->teams = teams();
    request->team = request->teams->find(request->body.model);
    if (!request->team) {
        auto e = ServeError::badRequest("the model \"" + request->body.model +
                                            "\" does not exist: this server serves teams (GET /v1/models lists them)",
                                        "model");
        e.status = 404;
        e.code = "model_not_found";
        refuse(exchange, e, {}, http, keyName);
        return;
    }
    const std::string& teamId = request->team->id;
    if (key && !key->allows(teamId)) {
        ServeError e = ServeError::badRequest("the key \"" + key->name + "\" may not use the team \"" + teamId + "\"",
                                              "model");
        e.status = 403;
        e.type = "permission_error";
        e.code = "team_not_allowed";
        refuse(exchange, e, teamId, http, keyName);
        return;
    }
    auto input = request->body.input(request->team->input.value_or(m_options.input));
    if (auto* error = std::get_if<ServeError>(&input)) {
        refuse(exchange, *error, teamId, http, keyName);
        return;
    }
    request->input = std::move(std::get<std::string>(input));
    if (key) {
        auto admitted = m_limits.admit(*key, request->team->reserveUsd(request->input.size()),
                                       std::chrono::system_clock::now());
        if (auto* error = std::get_if<ServeError>(&admitted)) {
            refuse(exchange, *error, teamId, http, keyName);
            return;
        }
        request->ticket = std::get<KeyLimits::Ticket>(admitted);
    }
    request->exchange = exchange;
    request->keyName = keyName;
    request->method = http.method;
    request->path = pathOf(http.target);
    request->arrived = arrived;
    request->arrivedAt = std::chrono::system_clock::now() - (SteadyClock::now() - arrived);
    exchange->onClose([weak = std::weak_ptr<Request>(request)] {
        auto r = weak.lock();
        if (!r)
            return;
        std::shared_ptr<Run> run;
        {
            std::lock_guard lock(r->mutex);
            r->gone = true;
            run = r->run;
        }
        if (run)
            run->cancel();
    });
    bool now = false;
    {
        std::lock_guard lock(m_mutex);
        if (int(m_active.size()) < m_options.maxConcurrency) {
            m_active.insert(request);
            now = true;
        } else if (int(m_queue.size()) < m_options.maxQueue) {
            m_queue.push_back(request);
            m_metrics.queued(1);
            return;
        }
    }
    if (now) {
        launch(request);
        return;
    }
    if (request->ticket)
        m_limits.release(*request->ticket, 0);
    refuse(exchange,
           ServeError::server(503,
                       "the server is busy: " + std::to_string(m_options.maxConcurrency) + " runs going and " +
                           std::to_string(m_options.maxQueue) + " requests waiting",
                       "server_busy", 1),
           teamId, http, keyName);
}

} // namespace conclave
