#include "conclave/search/DesignSearch.h"

#include "conclave/experiment/TrainedTasks.h"
#include "conclave/search/DesignSearchState.h"

#include <filesystem>

namespace conclave {

namespace {

std::string folderOf(const std::string& path)
{
    return path.empty() ? std::string() : std::filesystem::path(path).parent_path().string();
}

} // namespace

DesignSearch::DesignSearch(Engine& engine, const SearchSpace& space, std::shared_ptr<const TaskSet> tasks,
                           Options options)
    : m_state(std::make_unique<State>(engine, space, std::move(tasks), std::move(options)))
{
}

DesignSearch::~DesignSearch() = default;

std::optional<std::string> DesignSearch::refusal(const SearchBase& base)
{
    for (const auto& [name, backend] : base.team.backends) {
        if (backend.kind == BackendKind::OpenAi) {
            return (base.file.empty() ? base.team.name : base.file) + ": backend \"" + name.str() +
                   "\" calls a paid endpoint (openai), and a search never spends money: calibrate its models "
                   "(conclave calibrate) and search a local-moe copy, or replay recorded calls (a recorded backend)";
        }
    }
    return std::nullopt;
}

void DesignSearch::setProgressHandler(std::function<void(const Progress&)> handler)
{
    m_state->onProgress = std::move(handler);
}

void DesignSearch::setJournal(SearchJournal* journal)
{
    m_state->journal = journal;
}

void DesignSearch::stop(std::string why)
{
    std::lock_guard lock(m_state->stopMutex);
    if (m_state->stopping.exchange(true))
        return;
    m_state->stopWhy = std::move(why);
    if (m_state->inFlight)
        m_state->inFlight->stop(m_state->stopWhy);
}

DesignSearch::Result DesignSearch::run()
{
    auto& s = *m_state;
    std::set<std::string> trained;
    for (const auto& base : s.space.bases()) {
        if (auto refused = refusal(base)) {
            s.result.status = Status::Failed;
            s.result.error = *refused;
            return s.result;
        }
        trained.merge(TrainedTasks::of(base.team, folderOf(base.path), s.result.parts.notes));
    }
    std::string error;
    auto notes = s.result.parts.notes;
    auto parts = split(*s.tasks, s.options.split, s.options.seed, trained, error);
    if (!parts) {
        s.result.status = Status::Failed;
        s.result.error = error;
        return s.result;
    }
    s.result.parts = std::move(*parts);
    s.result.parts.notes.insert(s.result.parts.notes.begin(), notes.begin(), notes.end());
    s.run();
    s.result.seconds = s.elapsed();
    return s.result;
}

} // namespace conclave
