#include "inspector/AggregatorForm.h"

#include <QFormLayout>

namespace conclave::ui {

AggregatorForm::AggregatorForm(TeamDocument* document, QWidget* parent)
    : NodeForm(document, NodeKind::Aggregator, parent)
{
    auto* f = addSection(tr("Aggregation"));
    addEnum<AggregatorStrategy>(
        f, tr("Strategy"), QStringLiteral("strategy"), [](NodeConfig & c) -> auto& { return c.aggregatorStrategy; });
    addInt(
        f, tr("Quorum"), QStringLiteral("quorum"), 1, 10000, [](NodeConfig & c) -> auto& { return c.quorum; });
    addDouble(
        f, tr("Min confidence"), QStringLiteral("min_confidence"), 0, 1, 0.05,
        [](NodeConfig & c) -> auto& { return c.minConfidence; });
    addInt(
        f, tr("Deadline"), QStringLiteral("deadline_ms"), 1, 3600000,
        [](NodeConfig & c) -> auto& { return c.deadlineMs; }, tr("ms"));
    addModelCall(true);
}

} // namespace conclave::ui
