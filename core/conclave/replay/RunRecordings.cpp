#include "conclave/replay/RunRecordings.h"

#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"

namespace conclave {

namespace {

std::string placeKey(std::string_view model, std::string_view salt)
{
    return std::string(model) + '\x1f' + std::string(salt);
}

} // namespace

std::string RunRecordings::saltOf(const Span& span)
{
    const auto hash = span.draw.find('#');
    return span.node.str() + (hash == std::string::npos ? std::string() : span.draw.substr(hash));
}

RunRecordings::RunRecordings(RunId run, std::vector<StoredAttempt> attempts) : m_run(std::move(run))
{
    for (auto& a : attempts) {
        if (a.span.draw.empty())
            continue;
        m_calls[placeKey(a.span.model, saltOf(a.span))].attempts.push_back(std::move(a));
        ++m_attempts;
    }
}

std::shared_ptr<const RunRecordings> RunRecordings::load(const std::filesystem::path& db, const RunId& run,
                                                         std::string& error)
{
    auto opened = RunStore::openForReading(db);
    if (!opened.store) {
        error = opened.error;
        return nullptr;
    }
    auto reader = opened.store->reader(error);
    if (!reader)
        return nullptr;
    const auto id = reader->resolve(run.str(), error);
    auto attempts = id ? reader->runAttempts(*id, error) : std::nullopt;
    if (!attempts) {
        error = db.string() + ": " + error;
        return nullptr;
    }
    return std::make_shared<const RunRecordings>(*id, std::move(*attempts));
}

std::vector<const RecordedCall*> RunRecordings::find(const ModelRequest& request) const
{
    const auto it = m_calls.find(placeKey(request.model, request.salt));
    if (it == m_calls.end())
        return {};
    return {&it->second};
}

std::string RunRecordings::describe() const
{
    return "run " + m_run.str();
}

} // namespace conclave
