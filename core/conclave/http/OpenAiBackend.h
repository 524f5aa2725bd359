#pragma once

#include "conclave/engine/ModelBackend.h"
#include "conclave/http/EndpointLimits.h"
#include "conclave/http/HttpMultiLoop.h"
#include "conclave/http/OpenAiSettings.h"

#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace conclave {

class HttpHub;

// An OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp's server, Ollama's
// /v1, LM Studio) as a backend: chat completions, streamed by default, over
// the engine's one multi loop, behind the endpoint's shared limits. Tokens
// and replies arrive on the loop's thread. Retries are the engine's: a reply
// says whether another try may help and how long the server asked to wait.
// Holds nothing a transfer needs, so it may go while calls are in flight.
class OpenAiBackend : public ModelBackend {
public:
    using WarningSink = std::function<void(const std::string& warning)>;

    OpenAiBackend(OpenAiSettings settings, HttpMultiLoop& loop, std::shared_ptr<EndpointLimits> limits,
                  WarningSink warn = {});

    // The backend for `block` in a run, or null with `error` (a missing key).
    static std::shared_ptr<OpenAiBackend> make(const std::string& name, const Backend& block, HttpHub& hub,
                                               std::string& error);

    CallId start(ModelRequest request, CallCallbacks callbacks) override;
    void cancel(CallId call) override;
    // From the block's `prices`; a model without one costs 0, with one warning.
    double costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const override;

    const std::string& name() const { return m_settings->name; }
    const std::string& baseUrl() const { return m_settings->baseUrl; }

private:
    std::shared_ptr<const OpenAiSettings> m_settings;
    HttpMultiLoop& m_loop;
    std::shared_ptr<EndpointLimits> m_limits;
    WarningSink m_warn;
    mutable std::mutex m_mutex;
    mutable std::set<std::string, std::less<>> m_unpriced;
};

} // namespace conclave
