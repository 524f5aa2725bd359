#include "inspector/CoordinatorForm.h"

#include <QFormLayout>

namespace conclave::ui {

CoordinatorForm::CoordinatorForm(TeamDocument* document, QWidget* parent)
    : NodeForm(document, NodeKind::Coordinator, parent)
{
    auto* f = addSection(tr("Meeting"));
    addEnum<CoordinatorMode>(
        f, tr("Mode"), QStringLiteral("mode"), [](NodeConfig & c) -> auto& { return c.mode; });
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
