#include "conclave/experiment/TrainedTasks.h"

#include "conclave/diagnostics/Problem.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/routing/RouterFile.h"
#include "conclave/routing/ScorerFile.h"

namespace conclave {

namespace fs = std::filesystem;

std::optional<fs::path> TrainedTasks::fileOf(const Node& node, const fs::path& teamFolder)
{
    const auto& file = node.kind == NodeKind::Router ? node.config.routerFile : node.config.scorer;
    if (!file || (node.kind == NodeKind::Router && node.config.routerStrategy != RouterStrategy::Learned))
        return std::nullopt;
    return ModelsFile::resolve(*file, teamFolder);
}

std::optional<std::vector<RouterModel::TaskRef>> TrainedTasks::read(const fs::path& file, bool router,
                                                                   std::string& why)
{
    std::vector<Problem> problems;
    std::optional<std::vector<RouterModel::TaskRef>> tasks;
    if (router) {
        auto loaded = RouterFile::load(file);
        problems = std::move(loaded.problems);
        if (loaded.model)
            tasks = loaded.model->tasks;
    } else {
        auto loaded = ScorerFile::load(file);
        problems = std::move(loaded.problems);
        if (loaded.model)
            tasks = loaded.model->tasks;
    }
    if (!tasks)
        why = problems.empty() ? "unreadable" : problemText(problems.front());
    return tasks;
}

std::set<std::string> TrainedTasks::of(const Team& team, const fs::path& teamFolder, std::vector<std::string>& notes)
{
    std::set<std::string> ids;
    std::set<std::string> read;
    for (const auto& node : team.nodes) {
        const auto file = fileOf(node, teamFolder);
        if (!file || !read.insert(file->string()).second)
            continue;
        std::string why;
        const auto tasks = TrainedTasks::read(*file, node.kind == NodeKind::Router, why);
        if (!tasks) {
            notes.push_back("cannot read " + file->string() + " (" + why +
                            "): the tasks it was trained on are not left out");
            continue;
        }
        for (const auto& t : *tasks)
            ids.insert(t.id);
    }
    return ids;
}

} // namespace conclave
