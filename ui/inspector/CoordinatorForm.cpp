#include "inspector/CoordinatorForm.h"

#include "conclave/model/DefaultValues.h"

#include <QFormLayout>
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
    addInt(
        f, tr("Max rounds"), QStringLiteral("max_rounds"), 1, 100, [](NodeConfig & c) -> auto& { return c.maxRounds; });
    addDouble(
        f, tr("Consensus"), QStringLiteral("consensus"), 0, 1, 0.05,
        [](NodeConfig & c) -> auto& { return c.consensus; });
    addDouble(
        f, tr("Threshold"), QStringLiteral("threshold"), 0, 1, 0.05,
        [](NodeConfig & c) -> auto& { return c.threshold; });
    addNote(tr("Members are the experts its dashed member edges lead to (drag from the diamond port)."));
    addModelCall(true);
}

} // namespace conclave::ui
