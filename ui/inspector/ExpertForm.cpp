#include "inspector/ExpertForm.h"

#include <QFormLayout>

namespace conclave::ui {

ExpertForm::ExpertForm(TeamDocument* document, QWidget* parent) : NodeForm(document, NodeKind::Expert, parent)
{
    addModelCall(true);
    auto* f = addSection(tr("Voting"));
    addDouble(
        f, tr("Weight"), QStringLiteral("weight"), 0, 1000, 0.1, [](NodeConfig & c) -> auto& { return c.weight; });
}

} // namespace conclave::ui
