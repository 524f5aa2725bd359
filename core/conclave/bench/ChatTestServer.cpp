#include "conclave/bench/ChatTestServer.h"

#include "conclave/engine/ModelBackend.h"
#include "conclave/io/JsonText.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

constexpr std::array<ServerShape, 6> kShapes = {ServerShape::ChunkedSse,  ServerShape::ClosedSse,
                                                ServerShape::LateHeaders, ServerShape::ContentLength,
                                                ServerShape::Http10,      ServerShape::IdleClose};
constexpr std::array<std::string_view, 6> kNames = {"chunked",        "close",   "late-headers",
                                                    "content-length", "http1.0", "idle-close"};
constexpr auto kIdleCloseAfter = std::chrono::milliseconds(50);

// The answer split into `pieces` nearly equal parts (none empty).
std::vector<std::string> split(const std::string& text, int pieces)
{
    std::vector<std::string> out;
    const size_t n = std::clamp<size_t>(size_t(std::max(1, pieces)), 1, std::max<size_t>(1, text.size()));
    for (size_t i = 0; i < n; ++i)
        out.push_back(text.substr(i * text.size() / n, (i + 1) * text.size() / n - i * text.size() / n));
    return out;
}

std::string sseEvent(const nlohmann::json& data)
{
    return "data: " + data.dump() + "\n\n";
}

nlohmann::json usage(int64_t promptTokens, int64_t completionTokens)
{
    return {{"prompt_tokens", promptTokens},
            {"completion_tokens", completionTokens},
            {"total_tokens", promptTokens + completionTokens}};
}

nlohmann::json chunk(const std::string& content, bool last, const std::string& model, int64_t promptTokens,
                     int64_t completionTokens)
{
    nlohmann::json j = {{"id", "chatcmpl-bench"}, {"object", "chat.completion.chunk"}, {"model", model}};
    nlohmann::json choice = {{"index", 0}, {"delta", nlohmann::json::object()}};
    if (!content.empty())
        choice["delta"]["content"] = content;
    choice["finish_reason"] = last ? nlohmann::json("stop") : nlohmann::json(nullptr);
    j["choices"] = nlohmann::json::array({choice});
    if (last)
        j["usage"] = usage(promptTokens, completionTokens);
    return j;
}

std::string completion(const std::string& answer, const std::string& model, int64_t promptTokens,
                       int64_t completionTokens)
{
    const nlohmann::json j = {
        {"id", "chatcmpl-bench"},
        {"object", "chat.completion"},
        {"model", model},
        {"choices",
         {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", answer}}}, {"finish_reason", "stop"}}}},
        {"usage", usage(promptTokens, completionTokens)}};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The contents of the messages of one role, joined by blank lines.
std::string contentsOf(const nlohmann::json& messages, std::string_view role)
{
    std::string out;
    if (!messages.is_array())
        return out;
    for (const auto& m : messages) {
        if (!m.is_object() || m.value("role", "") != role)
            continue;
        const auto content = m.find("content");
        if (content == m.end() || !content->is_string())
            continue;
        if (!out.empty())
            out += "\n\n";
        out += content->get<std::string>();
    }
    return out;
}

HttpResponseHead head(ServerShape shape, const std::string& contentType)
{
    HttpResponseHead h;
    h.http10 = shape == ServerShape::Http10;
    h.headers.emplace_back("Content-Type", contentType);
    if (contentType == "text/event-stream")
        h.headers.emplace_back("Cache-Control", "no-cache");
    return h;
}

} // namespace

const std::array<ServerShape, 6>& allServerShapes()
{
    return kShapes;
}

std::string_view toString(ServerShape shape)
{
    const auto at = std::find(kShapes.begin(), kShapes.end(), shape);
    return kNames[size_t(at - kShapes.begin())];
}

std::optional<ServerShape> serverShapeFromString(std::string_view text)
{
    const auto at = std::find(kNames.begin(), kNames.end(), text);
    if (at == kNames.end())
        return std::nullopt;
    return kShapes[size_t(at - kNames.begin())];
}

ChatTestServer::ChatTestServer(ChatTestServerOptions options) : m_options(std::move(options)) {}

ChatTestServer::~ChatTestServer()
{
    if (m_server)
        m_server->stop();
}

std::unique_ptr<ChatTestServer> ChatTestServer::start(ChatTestServerOptions options, std::string& error)
{
    std::unique_ptr<ChatTestServer> server(new ChatTestServer(std::move(options)));
    HttpServerOptions http;
    http.host = "127.0.0.1";
    http.port = server->m_options.port;
    if (server->m_options.shape == ServerShape::IdleClose)
        http.idleTimeout = kIdleCloseAfter;
    auto* self = server.get();
    server->m_server = HttpServer::start(
        http,
        [self](HttpServerRequest request, std::shared_ptr<HttpExchange> exchange) {
            self->onRequest(std::move(request), std::move(exchange));
        },
        error);
    if (!server->m_server)
        return nullptr;
    return server;
}

uint16_t ChatTestServer::port() const
{
    return m_server->port();
}

std::string ChatTestServer::baseUrl() const
{
    return "http://127.0.0.1:" + std::to_string(port()) + "/v1";
}

void ChatTestServer::onRequest(HttpServerRequest request, std::shared_ptr<HttpExchange> exchange)
{
    const auto path = request.target.substr(0, request.target.find('?'));
    if (request.method == "GET" && path == "/v1/models") {
        exchange->respond(head(m_options.shape, "application/json"),
                          R"({"object":"list","data":[{"id":"bench","object":"model","owned_by":"conclave"}]})");
        return;
    }
    if (request.method != "POST" || path != "/v1/chat/completions") {
        auto h = head(m_options.shape, "application/json");
        h.status = 404;
        exchange->respond(std::move(h), R"({"error":{"message":"no such route","type":"invalid_request_error"}})");
        return;
    }
    const auto body = parseJsonQuietly(request.body);
    const bool stream = body.is_object() && body.value("stream", false);
    size_t index = 0;
    uint64_t generation = 0;
    int inFlight = 0;
    {
        std::lock_guard lock(m_mutex);
        ++m_requests;
        inFlight = ++m_inFlight;
        m_peak = std::max(m_peak, inFlight);
        index = m_answered.size();
        generation = m_generation;
        m_answered.push_back(Exchange{Clock::now(), {}});
    }
    // Decided outside the lock: a responder may take a while to decide.
    auto reply = m_options.responder ? responderReply(request.body, inFlight) : benchReply();
    {
        std::lock_guard lock(m_mutex);
        if (m_options.slotCount > 0 && m_busy >= m_options.slotCount) {
            m_waiting.push_back([this, stream, exchange, index, generation, reply = std::move(reply)]() mutable {
                answer(stream, exchange, index, generation, std::move(reply));
            });
            return;
        }
        ++m_busy;
    }
    answer(stream, std::move(exchange), index, generation, std::move(reply));
}

ChatTestServer::Reply ChatTestServer::benchReply() const
{
    Reply reply;
    const auto pieces = split(m_options.answer, m_options.tokens);
    const int64_t replyMs = std::max(0, m_options.replyMs);
    for (size_t i = 0; i < pieces.size(); ++i)
        reply.pieces.emplace_back(replyMs * int64_t(i + 1) / int64_t(pieces.size()), pieces[i]);
    reply.completionTokens = int64_t(pieces.size());
    return reply;
}

ChatTestServer::Reply ChatTestServer::responderReply(const std::string& text, int inFlight) const
{
    Reply reply;
    const auto body = parseJsonQuietly(text);
    if (!body.is_object()) {
        reply.error = "the request is not a JSON object";
        return reply;
    }
    ModelRequest request;
    request.model = body.value("model", "");
    const auto messages = body.find("messages");
    if (messages != body.end()) {
        request.system = contentsOf(*messages, "system");
        request.prompt = contentsOf(*messages, "user");
    }
    if (const auto seed = body.find("seed"); seed != body.end())
        request.params.extra = nlohmann::json{{"seed", *seed}};
    for (const char* key : {"max_tokens", "max_completion_tokens"}) {
        if (const auto most = body.find(key); most != body.end() && most->is_number_integer())
            request.params.maxTokens = most->get<int64_t>();
    }
    auto call = m_options.responder->respond(request);
    reply.model = request.model;
    if (!call.reply.ok) {
        reply.error = call.reply.error;
        return reply;
    }
    // The same arithmetic as LocalMoeBackend::start, with the server's own load.
    const double scale = (1.0 + call.loadSlope * double(inFlight - 1)) * m_options.responderTimeScale;
    const auto at = [&](double ms) { return int64_t(std::llround(ms * scale)); };
    const auto& all = call.reply.text;
    const size_t first = std::min(call.firstChunk.size(), all.size());
    if (first > 0 && first < all.size()) {
        reply.pieces.emplace_back(at(call.ttftMs), all.substr(0, first));
        reply.pieces.emplace_back(at(call.totalMs), all.substr(first));
    } else {
        reply.pieces.emplace_back(at(call.totalMs), all);
    }
    reply.promptTokens = call.reply.tokensIn;
    reply.completionTokens = call.reply.tokensOut;
    return reply;
}

void ChatTestServer::answer(bool stream, std::shared_ptr<HttpExchange> exchange, size_t index, uint64_t generation,
                            Reply reply)
{
    const auto shape = m_options.shape;
    if (!reply.error.empty()) {
        auto h = head(shape, "application/json");
        h.status = 400;
        const nlohmann::json error = {{"error", {{"message", reply.error}, {"type", "invalid_request_error"}}}};
        exchange->respond(std::move(h), error.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        finished(index, generation);
        return;
    }
    const auto shared = std::make_shared<const Reply>(std::move(reply));
    const auto due = [](int64_t ms) { return std::chrono::milliseconds(std::max<int64_t>(0, ms)); };
    if (!stream || shape == ServerShape::ContentLength) {
        exchange->after(
            due(shared->pieces.empty() ? 0 : shared->pieces.back().first), [this, exchange, index, generation, shared] {
                std::string text;
                for (const auto& [at, piece] : shared->pieces)
                    text += piece;
                exchange->respond(head(m_options.shape, "application/json"),
                                  completion(text, shared->model, shared->promptTokens, shared->completionTokens));
                finished(index, generation);
            });
        return;
    }
    const auto framing = shape == ServerShape::ChunkedSse || shape == ServerShape::IdleClose
                             ? StreamFraming::Chunked
                             : StreamFraming::CloseDelimited;
    if (shape != ServerShape::LateHeaders)
        exchange->beginStream(head(shape, "text/event-stream"), framing);
    for (size_t i = 0; i < shared->pieces.size(); ++i) {
        const bool last = i + 1 == shared->pieces.size();
        const bool first = i == 0;
        exchange->after(due(shared->pieces[i].first), [this, exchange, index, generation, shared, i, first, last,
                                                       framing] {
            if (first && m_options.shape == ServerShape::LateHeaders)
                exchange->beginStream(head(m_options.shape, "text/event-stream"), framing);
            const auto& r = *shared;
            exchange->write(sseEvent(chunk(r.pieces[i].second, false, r.model, r.promptTokens, r.completionTokens)));
            if (!last)
                return;
            exchange->write(sseEvent(chunk("", true, r.model, r.promptTokens, r.completionTokens)) +
                            "data: [DONE]\n\n");
            exchange->end();
            finished(index, generation);
        });
    }
}

void ChatTestServer::finished(size_t index, uint64_t generation)
{
    std::function<void()> next;
    {
        std::lock_guard lock(m_mutex);
        if (generation == m_generation && index < m_answered.size())
            m_answered[index].ended = Clock::now();
        --m_inFlight;
        if (!m_waiting.empty()) {
            next = std::move(m_waiting.front());
            m_waiting.pop_front();
        } else {
            --m_busy;
        }
    }
    if (next)
        next();
}

ChatTestServer::Stats ChatTestServer::stats() const
{
    std::lock_guard lock(m_mutex);
    return Stats{m_requests, m_peak, m_answered};
}

void ChatTestServer::reset()
{
    std::lock_guard lock(m_mutex);
    m_requests = 0;
    m_peak = m_inFlight;
    m_answered.clear();
    ++m_generation;
}

std::vector<double> ChatTestServer::waveWallsMs(std::vector<Exchange> answered, size_t size)
{
    std::sort(answered.begin(), answered.end(), [](const auto& a, const auto& b) { return a.arrived < b.arrived; });
    std::vector<double> walls;
    for (size_t begin = 0; size > 0 && begin < answered.size(); begin += size) {
        const size_t end = std::min(answered.size(), begin + size);
        auto last = answered[begin].ended;
        for (size_t i = begin; i < end; ++i)
            last = std::max(last, answered[i].ended);
        walls.push_back(std::chrono::duration<double, std::milli>(last - answered[begin].arrived).count());
    }
    return walls;
}

} // namespace conclave
