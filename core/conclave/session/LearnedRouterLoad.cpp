#include "conclave/session/LearnedRouterLoad.h"

#include "conclave/io/ModelsFile.h"
#include "conclave/routing/LearnedRouter.h"
#include "conclave/routing/RouterFile.h"
#include "conclave/routing/RouterPredictor.h"
#include "conclave/session/BackendFactory.h"
#include "conclave/util/NameList.h"

namespace conclave {

namespace {

// The price of `model` on the expert's backend: an openai block's prices, a local one's resolved profile.
Price priceOf(const Team& team, const Node& expert, const std::string& model,
              const std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>>& local)
{
    auto backend = expert.config.call.backend;
    if (!backend && team.defaults)
        backend = team.defaults->backend;
    if (!backend)
        return {};
    const auto block = team.backends.find(*backend);
    if (block != team.backends.end() && block->second.prices) {
        const auto price = block->second.prices->find(model);
        if (price != block->second.prices->end())
            return price->second;
    }
    const auto profiles = local.find(*backend);
    if (profiles != local.end() && profiles->second) {
        const auto profile = profiles->second->find(model);
        if (profile != profiles->second->end())
            return profile->second.pricePerMtok;
    }
    return {};
}

} // namespace

std::shared_ptr<const RouterBehaviour> LearnedRouterLoad::make(const Node& router, const EngineResources& resources,
                                                               const std::filesystem::path& teamFolder,
                                                               const Team* team, std::string& error)
{
    const auto& c = router.config;
    const auto file = c.routerFile.value_or("");
    const auto where = "node \"" + router.id.str() + "\": router_file \"" + file + "\": ";
    const auto policy = RoutePolicy::fromString(c.routePolicy.value_or(""));
    if (file.empty() || !policy) {
        error = "node \"" + router.id.str() + "\": a learned router needs router_file and policy";
        return nullptr;
    }
    auto read = RouterFile::load(ModelsFile::resolve(file, teamFolder));
    if (!read.model) {
        error = where + (read.problems.empty() ? std::string("cannot be read") : problemText(read.problems.front()));
        return nullptr;
    }
    std::string why;
    auto predictor = RouterPredictor::make(std::move(*read.model), resources.gate, why);
    if (!predictor) {
        error = where + why;
        return nullptr;
    }
    std::vector<LearnedRouter::Route> routes;
    if (team) {
        std::string profilesError;
        const auto local = BackendFactory::resolveProfiles(resources, *team, teamFolder, profilesError);
        for (const auto& edge : team->edges) {
            if (edge.from != router.id || edge.isMember())
                continue;
            const Node* target = team->findNode(edge.to);
            if (!target)
                continue;
            if (target->kind != NodeKind::Expert)
                continue; // the validator's to refuse (GraphChecks)
            auto model = target->config.call.model;
            if (!model && team->defaults)
                model = team->defaults->model;
            const auto index = predictor->model().modelIndex(model.value_or(""));
            if (!index) {
                error = where + "the route to \"" + target->id.str() + "\" answers with " + model.value_or("(no model)") +
                        ", which the router was not trained on (it knows " + commaJoined(predictor->model().models) +
                        "): re-train it with conclave train-router --models";
                return nullptr;
            }
            auto params = target->config.call.params;
            if (!params && team->defaults)
                params = team->defaults->params;
            const double out = params && params->maxTokens ? double(*params->maxTokens)
                                                            : LearnedRouter::kAssumedOutputTokens;
            routes.push_back({target->id, *index, priceOf(*team, *target, *model, local), out});
        }
    }
    std::optional<NodeId> strong, weak;
    if (c.strongRoute)
        strong = NodeId(*c.strongRoute);
    if (c.weakRoute)
        weak = NodeId(*c.weakRoute);
    return std::make_shared<LearnedRouter>(std::move(predictor), *policy, c.routeThreshold.value_or(0.0),
                                           c.costWeight.value_or(0.0), std::move(routes), strong, weak);
}

} // namespace conclave
