#include "conclave/search/SearchSetup.h"

#include "conclave/diagnostics/Problem.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/io/TeamFile.h"
#include "conclave/resources/LocalModelCatalog.h"
#include "conclave/search/DesignSearch.h"
#include "conclave/validate/Validator.h"

namespace conclave {

namespace fs = std::filesystem;

namespace {

bool validates(const SearchBase& base, const std::set<std::string>& localModels, std::vector<std::string>& errors)
{
    ValidationContext context;
    context.localModels = localModels;
    context.teamFolder = base.path.empty() ? fs::path() : fs::path(base.path).parent_path();
    bool ok = true;
    for (const auto& problem : validate(base.team, context)) {
        if (problem.isError()) {
            errors.push_back(formatProblem(problem, base.file.empty() ? base.team.name : base.file));
            ok = false;
        }
    }
    return ok;
}

} // namespace

std::optional<SearchBase> SearchSetup::loadBase(const std::string& file, const std::set<std::string>& localModels,
                                                std::vector<std::string>& errors)
{
    auto loaded = loadTeamFile(file);
    bool failed = !loaded.team;
    for (const auto& p : loaded.problems) {
        if (p.isError()) {
            errors.push_back(formatProblem(p, file));
            failed = true;
        }
    }
    if (failed)
        return std::nullopt;
    std::error_code ec;
    const auto absolute = fs::absolute(file, ec);
    SearchBase base{file, ec ? file : absolute.lexically_normal().string(), std::move(*loaded.team)};
    if (!validates(base, localModels, errors))
        return std::nullopt;
    return base;
}

SearchSetupResult SearchSetup::build(const SearchRequest& request, const fs::path& resourcesDir)
{
    SearchSetupResult result;
    auto& errors = result.errors;
    std::set<std::string> localModels;
    if (const auto catalog = LocalModelCatalog::load(resourcesDir / "models" / "local-models.json"); catalog.catalog)
        localModels = catalog.catalog->names();
    std::vector<SearchBase> bases;
    for (const auto& base : request.bases) {
        if (validates(base, localModels, errors))
            bases.push_back(base);
    }
    for (const auto& team : request.baseTeams) {
        SearchBase base{"", "", team};
        if (validates(base, localModels, errors))
            bases.push_back(std::move(base));
    }
    for (const auto& file : request.baseFiles) {
        if (auto base = loadBase(file, localModels, errors))
            bases.push_back(std::move(*base));
    }
    if (request.bases.empty() && request.baseTeams.empty() && request.baseFiles.empty())
        errors.push_back("search: give the team to start from (a team file)");
    for (const auto& file : request.referenceFiles) {
        if (auto reference = loadBase(file, localModels, errors))
            result.references.push_back(std::move(*reference));
    }
    for (const auto* list : {&bases, &result.references}) {
        for (const auto& base : *list) {
            if (auto refused = DesignSearch::refusal(base))
                errors.push_back("search: " + *refused);
        }
    }
    if (request.taskset.empty()) {
        errors.push_back("search: give the tasks with --taskset NAME|FILE");
    } else {
        // Several sets, comma-separated, are searched as one (a task is known by its id: two sets must not share one).
        std::optional<TaskSet> all;
        size_t start = 0;
        while (start <= request.taskset.size()) {
            const auto comma = request.taskset.find(',', start);
            const auto name = request.taskset.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            auto tasks = ExperimentSetup::taskSet(name, resourcesDir, errors, result.warnings);
            if (tasks && !all) {
                all = std::move(*tasks);
            } else if (tasks) {
                const size_t before = all->tasks().size();
                all->merge(*tasks);
                if (all->tasks().size() != before + tasks->tasks().size())
                    errors.push_back("--taskset: " + name + " has task ids another set of " + request.taskset +
                                     " already has");
            }
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        if (all && errors.empty()) {
            result.tasks = std::make_shared<const TaskSet>(std::move(*all));
            result.tasksetName = request.taskset;
        }
    }
    if (!errors.empty())
        return result;
    std::string error;
    if (!request.spaceFile.empty()) {
        result.space = SearchSpace::load(request.spaceFile, std::move(bases), error, localModels);
    } else {
        result.space = SearchSpace::fromFlags(request.parameters, std::move(bases), error, localModels);
        if (!result.space)
            error = "search space: " + error;
    }
    if (!result.space)
        errors.push_back(error);
    return result;
}

} // namespace conclave
