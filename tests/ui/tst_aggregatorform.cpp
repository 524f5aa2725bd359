// AggregatorForm in the inspector: "Skip when inputs agree" and its
// agree fraction are offered to a synthesize only, the fraction only while
// the box is checked; each edit is one undo step that undoes and redoes
// exactly, and a team that stops skipping is written as format version 1 again.
#include <QtTest>

#include "support/QtStrings.h"

#include "document/TeamDocument.h"
#include "inspector/Inspector.h"
#include "inspector/NodeForm.h"

#include "conclave/model/Team.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QUndoStack>

using namespace conclave;
using namespace conclave::ui;

namespace {

// "strategy skip=on|off fraction=VALUE|- v2", enabled widgets in capitals: one line for the whole state.
QString state(const TeamDocument& document, const NodeId& id, QCheckBox* skip, QDoubleSpinBox* fraction)
{
    const auto& c = document.node(id)->config;
    QString line = c.aggregatorStrategy ? q(std::string(toString(*c.aggregatorStrategy))) : QString("-");
    QString s = QStringLiteral("skip=%1").arg(c.skipWhenAgree ? (*c.skipWhenAgree ? "true" : "false") : "-");
    QString f = QStringLiteral("fraction=%1").arg(c.agreeFraction ? QString::number(*c.agreeFraction) : "-");
    line += ' ' + (skip->isEnabled() ? s.toUpper() : s) + (skip->isChecked() ? "[x]" : "[ ]");
    line += ' ' + (fraction->isEnabled() ? f.toUpper() : f) + '(' + fraction->text() + ')';
    line += QStringLiteral(" v%1").arg(formatVersionNeeded(document.team()));
    return line;
}

} // namespace

class TestAggregatorForm : public QObject {
    Q_OBJECT

private slots:
    void skipWhenAgreeAndItsFractionUndoably()
    {
        TeamDocument document;
        document.newTeam();
        const auto id = document.requestAddNode(NodeKind::Aggregator, Position{0, 0});
        QVERIFY(id);
        Inspector inspector(&document);
        inspector.showNode(*id);
        NodeForm* form = inspector.currentNodeForm();
        QVERIFY(form);
        auto* strategy = qobject_cast<QComboBox*>(form->field("strategy"));
        auto* skip = qobject_cast<QCheckBox*>(form->field("skip_when_agree"));
        auto* fraction = qobject_cast<QDoubleSpinBox*>(form->field("agree_fraction"));
        QVERIFY(strategy && skip && fraction);
        QCOMPARE(skip->text(), QString("Skip when inputs agree"));

        // A new aggregator votes by majority: nothing to skip.
        const QString majority = "majority skip=-[ ] fraction=-(default) v1";
        QCOMPARE(state(document, *id, skip, fraction), majority);

        const int before = document.undoStack()->count();
        strategy->setCurrentIndex(strategy->findText("synthesize"));
        emit strategy->activated(strategy->currentIndex());
        const QString synthesize = "synthesize SKIP=-[ ] fraction=-(default) v1";
        QCOMPARE(state(document, *id, skip, fraction), synthesize);

        skip->setChecked(true);
        const QString skipping = "synthesize SKIP=TRUE[x] FRACTION=-(default) v2";
        QCOMPARE(state(document, *id, skip, fraction), skipping);

        fraction->setValue(0.65);
        const QString twoThirds = "synthesize SKIP=TRUE[x] FRACTION=0.65(0.650) v2";
        QCOMPARE(state(document, *id, skip, fraction), twoThirds);
        QCOMPARE(document.undoStack()->count(), before + 3);

        // Undo each step, then redo each: the form follows the document exactly.
        document.undoStack()->undo();
        QCOMPARE(state(document, *id, skip, fraction), skipping);
        document.undoStack()->undo();
        QCOMPARE(state(document, *id, skip, fraction), synthesize);
        document.undoStack()->undo();
        QCOMPARE(state(document, *id, skip, fraction), majority);
        document.undoStack()->redo();
        QCOMPARE(state(document, *id, skip, fraction), synthesize);
        document.undoStack()->redo();
        QCOMPARE(state(document, *id, skip, fraction), skipping);
        document.undoStack()->redo();
        QCOMPARE(state(document, *id, skip, fraction), twoThirds);

        // Unchecked removes the key (it is not written as false); the fraction
        // left behind can still be cleared, and then the team is version 1 again.
        skip->setChecked(false);
        QCOMPARE(state(document, *id, skip, fraction), "synthesize SKIP=-[ ] FRACTION=0.65(0.650) v2");
        fraction->setValue(0);
        QCOMPARE(state(document, *id, skip, fraction), synthesize);
        QCOMPARE(document.undoStack()->count(), before + 5);
    }

    // A skip set on another strategy (the validator warns) can be unset, not set anew.
    void aStraySkipCanBeCleared()
    {
        TeamDocument document;
        document.newTeam();
        const auto id = document.requestAddNode(NodeKind::Aggregator, Position{0, 0});
        QVERIFY(id);
        NodeConfig config = document.node(*id)->config;
        config.skipWhenAgree = true;
        QVERIFY(document.requestSetConfig(*id, config, -1));
        Inspector inspector(&document);
        inspector.showNode(*id);
        NodeForm* form = inspector.currentNodeForm();
        auto* skip = qobject_cast<QCheckBox*>(form->field("skip_when_agree"));
        auto* fraction = qobject_cast<QDoubleSpinBox*>(form->field("agree_fraction"));
        QVERIFY(skip && fraction);
        QCOMPARE(state(document, *id, skip, fraction), "majority SKIP=TRUE[x] fraction=-(default) v2");
        skip->setChecked(false);
        QCOMPARE(state(document, *id, skip, fraction), "majority skip=-[ ] fraction=-(default) v1");
    }
};

QTEST_MAIN(TestAggregatorForm)
#include "tst_aggregatorform.moc"
