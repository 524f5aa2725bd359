#include "conclave/http/OpenAiBackend.h"

#include "conclave/http/HttpHub.h"
#include "conclave/http/OpenAiCall.h"

#include <iostream>

namespace conclave {

OpenAiBackend::OpenAiBackend(OpenAiSettings settings, HttpMultiLoop& loop, std::shared_ptr<EndpointLimits> limits,
                             WarningSink warn)
    : m_settings(std::make_shared<const OpenAiSettings>(std::move(settings))), m_loop(loop),
      m_limits(std::move(limits)), m_warn(std::move(warn))
{
    if (!m_warn)
        m_warn = [](const std::string& warning) { std::cerr << "conclave: warning: " << warning << '\n'; };
}

std::shared_ptr<OpenAiBackend> OpenAiBackend::make(const std::string& name, const Backend& block, HttpHub& hub,
                                                   std::string& error)
{
    auto settings = OpenAiSettings::fromBlock(name, block, error);
    if (!settings)
        return nullptr;
    return std::make_shared<OpenAiBackend>(std::move(*settings), hub.loop(), hub.limitsFor(block));
}

CallId OpenAiBackend::start(ModelRequest request, CallCallbacks callbacks)
{
    auto call = std::make_shared<OpenAiCall>(m_settings, std::move(request), std::move(callbacks));
    auto http = call->httpRequest(m_limits);
    return m_loop.submit(std::move(http),
                         HttpHandlers{[call](const HttpResponse& head, std::string_view bytes) {
                                          return call->onData(head, bytes);
                                      },
                                      [call](HttpResponse response) { call->onDone(std::move(response)); }});
}

void OpenAiBackend::cancel(CallId call) { m_loop.cancel(call); }

double OpenAiBackend::costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const
{
    const auto it = m_settings->prices.find(std::string(model));
    if (it != m_settings->prices.end())
        return it->second.costUsd(double(tokensIn), double(tokensOut));
    if (tokensIn + tokensOut == 0)
        return 0;  // nothing to price: no warning for a call that never got going
    bool first = false;
    {
        std::lock_guard lock(m_mutex);
        first = m_unpriced.emplace(model).second;
    }
    if (first)
        m_warn("backend \"" + m_settings->name + "\" has no price for model \"" + std::string(model) +
               "\"; its calls count as costing 0 (add it to the backend's prices)");
    return 0;
}

} // namespace conclave
