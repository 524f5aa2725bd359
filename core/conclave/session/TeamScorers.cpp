#include "conclave/session/TeamScorers.h"

#include "conclave/io/ModelsFile.h"
#include "conclave/routing/ScorerFile.h"
#include "conclave/routing/ScorerPredictor.h"
#include "conclave/util/NameList.h"

namespace conclave {

TeamScorers::Map TeamScorers::load(const Team& team, const std::filesystem::path& teamFolder,
                                   std::shared_ptr<const Gate> gate, std::string& error)
{
    Map scorers;
    for (const auto& node : team.nodes) {
        if (node.kind != NodeKind::Coordinator || !node.config.scorer)
            continue;
        const auto where = "node \"" + node.id.str() + "\": scorer \"" + *node.config.scorer + "\": ";
        const auto path = ModelsFile::resolve(*node.config.scorer, teamFolder);
        auto read = ScorerFile::load(path);
        if (!read.model) {
            error = where + (read.problems.empty() ? std::string("cannot be read") : problemText(read.problems.front()));
            return {};
        }
        const auto& model = *read.model;
        for (const auto& edge : team.edges) {
            if (!edge.isMember() || edge.from != node.id)
                continue;
            const Node* member = team.findNode(edge.to);
            if (!member)
                continue;
            if (member->kind != NodeKind::Expert) {
                error = where + "member \"" + member->id.str() + "\" is a " + std::string(toString(member->kind)) +
                        "; a scorer scores experts' answers";
                return {};
            }
            const auto modelName = member->config.call.model.value_or("");
            if (!model.modelIndex(modelName)) {
                error = where + "member \"" + member->id.str() + "\" answers with " + modelName +
                        ", which the scorer was not trained on (it knows " + commaJoined(model.models) +
                        "): re-train it with conclave train-scorer --models";
                return {};
            }
        }
        std::string why;
        auto predictor = ScorerPredictor::make(std::move(*read.model), gate, why);
        if (!predictor) {
            error = where + why;
            return {};
        }
        scorers.emplace(node.id, std::move(predictor));
    }
    return scorers;
}

} // namespace conclave
