#include "conclave/http/BackendProbe.h"

#include "conclave/http/HttpHub.h"
#include "conclave/http/OpenAiBackend.h"
#include "conclave/http/OpenAiErrors.h"
#include "conclave/io/JsonText.h"

#include <nlohmann/json.hpp>

#include <future>

namespace conclave {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

BackendProbe::BackendProbe(HttpHub& hub, std::chrono::milliseconds timeout) : m_hub(hub), m_timeout(timeout) {}

std::optional<std::string> BackendProbe::modelUsedOn(const Team& team, const BackendName& backend)
{
    const auto defaults = team.defaults.value_or(Defaults{});
    const BackendName only = team.backends.size() == 1 ? team.backends.begin()->first : BackendName();
    for (const auto& node : team.nodes) {
        const auto& call = node.config.call;
        const auto model = call.model ? call.model : defaults.model;
        if (!model)
            continue;
        if (call.backend.value_or(defaults.backend.value_or(only)) == backend)
            return model;
    }
    return std::nullopt;
}

std::vector<ProbeResult> BackendProbe::check(const Team& team)
{
    std::vector<ProbeResult> out;
    for (const auto& [name, block] : team.backends) {
        if (block.kind == BackendKind::OpenAi) {
            out.push_back(checkOpenAi(name.str(), block, modelUsedOn(team, name)));
            continue;
        }
        ProbeResult r;
        r.backend = name.str();
        r.kind = "local-moe";
        r.ok = true;
        r.detail = "the built-in simulator (no network)";
        out.push_back(std::move(r));
    }
    return out;
}

ProbeResult BackendProbe::checkOpenAi(const std::string& name, const Backend& block,
                                      const std::optional<std::string>& model)
{
    ProbeResult r;
    r.backend = name;
    r.kind = "openai";
    std::string error;
    auto settings = OpenAiSettings::fromBlock(name, block, error);
    if (!settings) {
        r.detail = error;
        return r;
    }
    // GET /models: cheap, and it proves the address, TLS and the key.
    HttpRequest list;
    list.url = settings->url("/models");
    list.headers = settings->requestHeaders(false);
    list.caFile = settings->caFile;
    list.connectTimeoutMs = settings->connectTimeoutMs;
    auto body = std::make_shared<std::string>();
    // Shared with the callback, so the promise lives until it has finished with it.
    auto answered = std::make_shared<std::promise<HttpResponse>>();
    auto future = answered->get_future();
    const auto start = Clock::now();
    auto& loop = m_hub.loop();
    const auto id = loop.submit(std::move(list), HttpHandlers{[body](const HttpResponse&, std::string_view bytes) {
                                                                  if (body->size() < (1 << 20))
                                                                      body->append(bytes);
                                                                  return true;
                                                              },
                                                              [answered](HttpResponse response) {
                                                                  answered->set_value(std::move(response));
                                                              }});
    if (future.wait_for(m_timeout) != std::future_status::ready)
        loop.cancel(id);
    const auto response = future.get();
    r.latencyMs = msSince(start);
    const auto where = settings->baseUrl + ": ";
    if (response.cancelled) {
        r.detail = where + "no answer within " + std::to_string(m_timeout.count()) + " ms";
        return r;
    }
    if (response.status >= 200 && response.status <= 299) {
        const auto j = parseJsonQuietly(*body);
        const auto data = j.is_object() ? j.find("data") : j.end();
        if (data == j.end() || !data->is_array()) {
            r.detail = where + "GET /models answered, but not with a model list";
            return r;
        }
        r.ok = true;
        r.detail = where + std::to_string(data->size()) + (data->size() == 1 ? " model" : " models");
        if (model) {
            const bool listed = std::any_of(data->begin(), data->end(), [&](const nlohmann::json& m) {
                return m.is_object() && m.value("id", "") == *model;
            });
            r.detail += listed ? ", " + *model + " among them" : "; " + *model + " is not listed";
        }
        return r;
    }
    const bool noListing = response.status == 404 || response.status == 405 || response.status == 501;
    if (!noListing || !model) {
        const auto reason = response.status == 0
                                ? response.transportError
                                : OpenAiErrors::describe(response.status, OpenAiErrors::fromBody(*body), *body);
        r.detail = where + OpenAiErrors::redact(reason, settings->apiKey);
        return r;
    }
    // No model list here: a one-token completion instead.
    auto b = std::make_shared<OpenAiBackend>(*settings, loop, nullptr);
    ModelRequest ping;
    ping.model = *model;
    ping.prompt = "Reply with OK.";
    ping.params.maxTokens = 1;
    auto replied = std::make_shared<std::promise<ModelReply>>();
    auto got = replied->get_future();
    const auto start2 = Clock::now();
    const auto call = b->start(ping, CallCallbacks{{}, [replied](ModelReply reply) { replied->set_value(std::move(reply)); }});
    if (got.wait_for(m_timeout) != std::future_status::ready)
        b->cancel(call);
    const auto reply = got.get();
    r.latencyMs = msSince(start2);
    r.ok = reply.ok;
    r.detail = where + (reply.ok ? "a one-token completion of " + *model + " answered"
                                 : (reply.cancelled ? "no answer within " + std::to_string(m_timeout.count()) + " ms"
                                                    : reply.error));
    return r;
}

} // namespace conclave
