#include "inspector/AggregatorForm.h"

#include "conclave/model/DefaultValues.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>

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
    addAgreementSkip(f);
    addModelCall(true);
}

void AggregatorForm::addAgreementSkip(QFormLayout* f)
{
    auto* skip = new QCheckBox(tr("Skip when inputs agree"), this);
    skip->setToolTip(tr("synthesize: when at least two inputs arrived and enough of them give the same answer, "
                        "return it without calling the model"));
    f->addRow(QString(), skip);
    registerField(QStringLiteral("skip_when_agree"), skip);
    // Unchecked removes the key rather than writing false, so a team that
    // does not skip stays a format version 1 file.
    connect(skip, &QCheckBox::toggled, this, [this](bool on) {
        commit([on](NodeConfig& c) {
            if (on)
                c.skipWhenAgree = true;
            else
                c.skipWhenAgree.reset();
        });
    });
    // Its lowest step is "default" (0): any share from 0.05 up can be set.
    auto* fraction = addDouble(
        f, tr("Agree fraction"), QStringLiteral("agree_fraction"), 0.05, 1, 0.05,
        [](NodeConfig & c) -> auto& { return c.agreeFraction; });
    fraction->setToolTip(tr("The share of the inputs that arrived ok that must give one answer (default %1: all of "
                            "them); two inputs at least, and their mean confidence at least Min confidence, if set")
                             .arg(defaults::kAgreeFraction));
    addLoader([skip, fraction](const Node& n) {
        const bool synthesize = n.config.aggregatorStrategy == AggregatorStrategy::Synthesize;
        const bool on = n.config.skipWhenAgree.value_or(false);
        {
            const QSignalBlocker block(skip);
            skip->setChecked(on);
        }
        // Only a synthesize reads them; a value left on another strategy can
        // still be cleared (the validator warns about it).
        skip->setEnabled(synthesize || on);
        fraction->setEnabled((synthesize && on) || n.config.agreeFraction.has_value());
    });
}

} // namespace conclave::ui
