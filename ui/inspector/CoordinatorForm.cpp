#include "inspector/CoordinatorForm.h"

#include "conclave/model/DefaultValues.h"
#include "conclave/model/TeamGraph.h"
#include "document/TeamDocument.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

namespace conclave::ui {

CoordinatorForm::CoordinatorForm(TeamDocument* document, QWidget* parent)
    : NodeForm(document, NodeKind::Coordinator, parent)
{
    auto* f = addSection(tr("Meeting"));
    addEnum<CoordinatorMode>(
        f, tr("Mode"), QStringLiteral("mode"), [](NodeConfig & c) -> auto& { return c.mode; });
    auto* initial = addInt(
        f, tr("Initial members"), QStringLiteral("initial"), 1, 1000,
        [](NodeConfig & c) -> auto& { return c.initial; });
    initial->setToolTip(tr("adaptive: how many members answer in the first round (default %1); "
                           "each later round asks one more")
                            .arg(defaults::kInitialMembers));
    // Only an adaptive meeting reads it; a value set in another mode stays in
    // the file (the validator warns) but is not offered for editing.
    addLoader([f, initial](const Node& n) { f->setRowVisible(initial, n.config.mode == CoordinatorMode::Adaptive); });
    auto* maxSubtasks = addInt(
        f, tr("Max subtasks"), QStringLiteral("max_subtasks"), 1, 1000,
        [](NodeConfig & c) -> auto& { return c.maxSubtasks; });
    // Decompose only, like "Initial members"; "default" names the value it stands for,
    // the member count, which the loader sees change as member edges come and go.
    addLoader([this, f, maxSubtasks](const Node& n) {
        f->setRowVisible(maxSubtasks, n.config.mode == CoordinatorMode::Decompose);
        const TeamGraph graph(this->document()->team());
        const auto index = graph.indexOf(n.id);
        const auto members = defaults::maxSubtasks({}, index ? graph.members(*index).size() : 0);
        maxSubtasks->setSpecialValueText(tr("default (%1)").arg(members));
        maxSubtasks->setToolTip(tr("decompose: the most subtasks the plan may have, so the most member calls "
                                   "one plan costs (default: one per member, %1 here); further plan lines are "
                                   "dropped and counted on the plan round")
                                    .arg(members));
    });
    addInt(
        f, tr("Max rounds"), QStringLiteral("max_rounds"), 1, 100, [](NodeConfig & c) -> auto& { return c.maxRounds; });
    addDouble(
        f, tr("Consensus"), QStringLiteral("consensus"), 0, 1, 0.05,
        [](NodeConfig & c) -> auto& { return c.consensus; });
    addDouble(
        f, tr("Threshold"), QStringLiteral("threshold"), 0, 1, 0.05,
        [](NodeConfig & c) -> auto& { return c.threshold; });
    auto* scorer = addText(
        f, tr("Scorer file"), QStringLiteral("scorer"), [](NodeConfig & c) -> auto& { return c.scorer; });
    scorer->setPlaceholderText(tr("none: stated confidence decides"));
    scorer->setToolTip(tr("cascade, adaptive: a scorer file (conclave train-scorer); its P(an answer is right) "
                          "replaces the members' stated confidence against the threshold. A relative path is "
                          "found in the team file's folder"));
    addLoader([f, scorer](const Node& n) {
        f->setRowVisible(scorer, n.config.mode == CoordinatorMode::Cascade || n.config.mode == CoordinatorMode::Adaptive);
    });
    addNote(tr("Members are the experts its dashed member edges lead to (drag from the diamond port)."));
    addModelCall(true);
}

} // namespace conclave::ui
