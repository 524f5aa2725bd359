// `conclave calibrate-threshold`: the threshold that sends a share of tasks to a learned router's strong route.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/io/TeamFile.h"
#include "conclave/routing/LearnedRouter.h"
#include "conclave/routing/ThresholdCalibration.h"

#include <ostream>

namespace conclave::cli {

int runCalibrateThreshold(const CliContext& context, const CalibrateThresholdArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "calibrate-threshold: " << message << '\n';
        return kExitBadInput;
    };
    if (!(args.strongShare >= 0 && args.strongShare <= 1))
        return fail("--strong-share: expected a share from 0 to 1, got " + fixed(args.strongShare, 3));
    auto loaded = loadTeamFile(args.team);
    if (!loaded.team) {
        for (const auto& p : loaded.problems) {
            if (p.isError())
                context.err << formatProblem(p, args.team) << '\n';
        }
        return kExitBadInput;
    }
    auto& team = *loaded.team;
    // The learned router: --node, else the team's only one.
    std::vector<const Node*> learned;
    for (const auto& node : team.nodes) {
        if (node.kind == NodeKind::Router && node.config.routerStrategy == RouterStrategy::Learned)
            learned.push_back(&node);
    }
    const Node* router = nullptr;
    if (args.node) {
        const Node* named = team.findNode(NodeId(*args.node));
        if (!named || named->kind != NodeKind::Router || named->config.routerStrategy != RouterStrategy::Learned)
            return fail("--node " + *args.node + ": " + args.team + " has no learned router of that id");
        router = named;
    } else if (learned.size() == 1) {
        router = learned.front();
    } else {
        return fail(args.team + " has " + std::to_string(learned.size()) +
                    " learned routers: name one with --node");
    }
    const auto policy = RoutePolicy::fromString(router->config.routePolicy.value_or(""));
    if (policy == RoutePolicy::Kind::MaxUtility)
        return fail("router \"" + router->id.str() +
                    "\" has policy max_utility, which has no threshold: it weighs cost by cost_weight (sweep it "
                    "with conclave eval --vary)");

    auto resources = context.engineResources();
    if (!resources)
        return kExitBadInput;
    std::vector<std::string> errors, warnings;
    const auto tasks = ExperimentSetup::taskSet(args.taskset, *context.resources, errors, warnings);
    for (const auto& warning : warnings)
        context.err << "warning: " << warning << '\n';
    if (!tasks)
        return fail(errors.empty() ? args.taskset + ": cannot be read" : errors.front());
    const auto folder = std::filesystem::path(args.team).parent_path();
    Engine engine(*resources);
    const auto prepared = engine.prepare(team, folder);
    if (!prepared.team)
        return fail(args.team + ": " + prepared.error);
    const auto index = prepared.team->plan->indexOf(router->id);
    const auto* behaviour =
        index ? dynamic_cast<const LearnedRouter*>(prepared.team->plan->at(*index).router.get()) : nullptr;
    if (!behaviour)
        return fail("router \"" + router->id.str() + "\" has no learned behaviour");
    std::vector<std::vector<RoutePolicy::Route>> routes;
    for (const auto& task : tasks->tasks())
        routes.push_back(behaviour->predicted(task.prompt));
    if (routes.empty() || routes.front().empty())
        return fail("router \"" + router->id.str() + "\" has no routes to experts");
    const size_t strong = behaviour->routeIndex(behaviour->strong()).value_or(0);
    const size_t weak = behaviour->routeIndex(behaviour->weak()).value_or(0);
    std::string error;
    const auto result = ThresholdCalibration::forShare(*policy, routes, args.strongShare, strong, weak, error);
    if (!result)
        return fail(error);
    const auto strongName = *policy == RoutePolicy::Kind::StrongWeak
                                ? routes.front()[strong].name
                                : routes.front()[ThresholdCalibration::dearest(routes.front())].name;
    context.out << "router " << router->id.str() << " (" << RoutePolicy::toString(*policy) << "): threshold "
                << fixed(result->threshold, 4) << " sends " << result->strongTasks << " of " << routes.size()
                << " tasks (" << fixed(result->share * 100, 1) << " %) to " << strongName << " (asked "
                << fixed(args.strongShare * 100, 1) << " %)\n";
    if (!args.write)
        return kExitOk;
    if (result->threshold < -1 || result->threshold > 1)
        return fail("the threshold " + fixed(result->threshold, 4) + " is outside -1 to 1; nothing written");
    team.findNode(router->id)->config.routeThreshold = result->threshold;
    if (const auto failed = saveTeamFile(team, args.team))
        return fail(args.team + ": " + *failed);
    context.out << "wrote " << args.team << ": " << router->id.str() << ".threshold = " << fixed(result->threshold, 4)
                << '\n';
    return kExitOk;
}

} // namespace conclave::cli
