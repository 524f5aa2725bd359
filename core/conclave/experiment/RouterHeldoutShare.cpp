#include "conclave/experiment/RouterHeldoutShare.h"

#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/local/TaskSet.h"
#include "conclave/model/TeamGraph.h"
#include "conclave/routing/LearnedRouter.h"
#include "conclave/routing/ThresholdCalibration.h"
#include "conclave/session/LearnedRouterLoad.h"
#include "conclave/validate/Validator.h"

#include <map>

namespace conclave {

namespace {

std::string quoted(const std::string& text)
{
    return "\"" + text + "\"";
}

// The validator's first error in the router itself (its fields, its edges); empty when none. Another
// node's problems do not stop a prediction: only this router's decide anything here.
std::string routerProblem(const Team& team, const NodeId& router, const EngineResources& resources,
                          const std::filesystem::path& teamFolder)
{
    ValidationContext context;
    context.teamFolder = teamFolder;
    for (const auto& profile : resources.localModels)
        context.localModels.insert(profile.first);
    for (const auto& problem : validate(team, context)) {
        if (problem.isError() && problem.node == router)
            return problem.message;
    }
    return {};
}

// A held-out task's set: a bundled set by name, else a file, beside the router file and then as recorded.
std::optional<TaskSet> loadSet(const std::string& name, const std::filesystem::path& resourcesDir,
                               const std::filesystem::path& routerFolder, std::string& error)
{
    std::string nameOrFile = name;
    if (!TaskSet::bundled(resourcesDir, name)) {
        const std::filesystem::path recorded(name);
        std::vector<std::filesystem::path> candidates;
        if (!name.empty() && recorded.is_relative())
            candidates.push_back((routerFolder / recorded).lexically_normal());
        if (!name.empty())
            candidates.push_back(recorded);
        nameOrFile.clear();
        for (const auto& candidate : candidates) {
            std::error_code ec;
            if (std::filesystem::is_regular_file(candidate, ec)) {
                nameOrFile = candidate.string();
                break;
            }
        }
        if (nameOrFile.empty()) {
            error = "task set " + quoted(name) + " not found: neither a bundled task set nor a file";
            return std::nullopt;
        }
    }
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
    auto tasks = ExperimentSetup::taskSet(nameOrFile, resourcesDir, errors, warnings);
    if (!tasks)
        error = "task set " + quoted(name) + ": " + (errors.empty() ? std::string("cannot be read") : errors.front());
    return tasks;
}

} // namespace

RouterHeldoutShare::Result RouterHeldoutShare::compute(const Team& team, const NodeId& router,
                                                       const EngineResources& resources,
                                                       const std::filesystem::path& resourcesDir,
                                                       const std::filesystem::path& teamFolder)
{
    Result r;
    const Node* node = team.findNode(router);
    if (!node) {
        r.error = "no node " + quoted(router.str()) + " in the team";
        return r;
    }
    const auto& c = node->config;
    if (node->kind != NodeKind::Router || c.routerStrategy != RouterStrategy::Learned) {
        r.error = "node " + quoted(router.str()) + " is not a learned router";
        return r;
    }
    r.policy = RoutePolicy::fromString(c.routePolicy.value_or(""));
    r.threshold = c.routeThreshold.value_or(0.0);
    if (c.routerFile && !c.routerFile->empty()) {
        const auto resolved = ModelsFile::resolve(*c.routerFile, teamFolder);
        std::error_code ec;
        const auto absolute = std::filesystem::absolute(resolved, ec);
        r.file = ec ? resolved : absolute.lexically_normal();
    }
    r.error = routerProblem(team, router, resources, teamFolder);
    if (!r.error.empty())
        return r;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(r.file, ec)) {
        r.error = "router file not found: " + r.file.string();
        return r;
    }

    if (!resources.gate) {
        r.error = "the engine's resources are not loaded (no gate to read the router file under)";
        return r;
    }
    // The behaviour a run would be prepared with: the file read under the engine's gate, routes priced.
    std::string error;
    const auto made = LearnedRouterLoad::make(*node, resources, teamFolder, &team, error);
    const auto* learned = dynamic_cast<const LearnedRouter*>(made.get());
    if (!learned) {
        r.error = error.empty() ? "node " + quoted(router.str()) + ": no learned behaviour was made" : error;
        return r;
    }
    const RouterModel& model = learned->model();
    r.method = std::string(toString(model.method));
    r.models = model.models;
    if (model.heldoutTasks.empty()) {
        r.error = "held-out tasks unknown: the file records none";
        return r;
    }

    // Each set read once; a map's values stay put, so the tasks' addresses hold.
    std::map<std::string, std::optional<TaskSet>> sets;
    std::vector<const Task*> tasks;
    for (const auto& ref : model.heldoutTasks) {
        auto set = sets.find(ref.set);
        if (set == sets.end()) {
            set = sets.emplace(ref.set, loadSet(ref.set, resourcesDir, r.file.parent_path(), error)).first;
            if (!set->second) {
                r.error = error;
                return r;
            }
        }
        const Task* task = set->second->byId(ref.id);
        if (!task) {
            r.error = "held-out task " + quoted(ref.id) + " is not in task set " + quoted(ref.set);
            return r;
        }
        tasks.push_back(task);
    }

    // The router's ways out as a run offers them (RunPlan: the graph's out edges, in edge order).
    const TeamGraph graph(team);
    RouterInput input;
    for (const auto& link : graph.out(*graph.indexOf(router))) {
        input.routes.push_back(RouteCandidate{link.edge, graph.idOf(link.node), team.edges[link.edge].when, {}});
        Route route;
        route.target = graph.idOf(link.node);
        if (const auto prepared = learned->routeIndex(route.target))
            route.model = model.models[learned->routes()[*prepared].model];
        r.routes.push_back(std::move(route));
    }
    if (r.routes.empty()) {
        r.error = "node " + quoted(router.str()) + " has no routes";
        return r;
    }
    for (const Task* task : tasks) {
        input.text = task->prompt;
        const auto decision = learned->decide(input);
        for (size_t i = 0; i < input.routes.size() && decision.edges.size() == 1; ++i) {
            if (input.routes[i].edge == decision.edges.front())
                ++r.routes[i].tasks;
        }
    }
    r.tasks = tasks.size();
    for (auto& route : r.routes)
        route.share = double(route.tasks) / double(r.tasks);

    std::optional<NodeId> strong;
    if (r.policy == RoutePolicy::Kind::StrongWeak)
        strong = NodeId(c.strongRoute.value_or(""));
    else if (!learned->routes().empty())
        strong = learned->routes()[ThresholdCalibration::dearest(learned->predicted(tasks.front()->prompt))].target;
    for (size_t i = 0; strong && i < r.routes.size(); ++i) {
        if (r.routes[i].target == *strong)
            r.strong = i;
    }
    return r;
}

} // namespace conclave
