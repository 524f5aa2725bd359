// CoordinatorForm in the inspector: mode adaptive is offered, its "Initial
// members" field shows in that mode only, and every edit is one undo step
// that undoes and redoes exactly; the canvas subtitle says "adaptive · N first".
#include <QtTest>

#include "support/QtStrings.h"

#include "document/TeamDocument.h"
#include "editor/NodeItem.h"
#include "inspector/Inspector.h"
#include "inspector/NodeForm.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>
#include <QUndoStack>

using namespace conclave;
using namespace conclave::ui;

namespace {

// Whether the form row of `field` is shown (false when no form layout of `owner` holds it).
bool rowShown(QWidget* owner, QWidget* field)
{
    for (auto* form : owner->findChildren<QFormLayout*>()) {
        if (form->indexOf(field) >= 0)
            return form->isRowVisible(field);
    }
    return false;
}

bool rowHidden(QWidget* owner, QWidget* field)
{
    for (auto* form : owner->findChildren<QFormLayout*>()) {
        if (form->indexOf(field) >= 0)
            return !form->isRowVisible(field);
    }
    return false;
}

} // namespace

class TestCoordinatorForm : public QObject {
    Q_OBJECT

private slots:
    void adaptiveAndItsInitialMembersUndoably()
    {
        TeamDocument document;
        document.newTeam();
        const auto id = document.requestAddNode(NodeKind::Coordinator, Position{0, 0});
        QVERIFY(id);
        Inspector inspector(&document);
        inspector.showNode(*id);
        NodeForm* form = inspector.currentNodeForm();
        QVERIFY(form);
        auto* mode = qobject_cast<QComboBox*>(form->field("mode"));
        auto* initial = qobject_cast<QSpinBox*>(form->field("initial"));
        QVERIFY(mode && initial);
        QStringList modes;
        for (int i = 0; i < mode->count(); ++i)
            modes << mode->itemText(i);
        QCOMPARE(modes, (QStringList{"(not set)", "round_robin", "debate", "decompose", "cascade", "adaptive"}));
        // A new coordinator is round_robin: no initial members to set.
        QCOMPARE(mode->currentText(), QString("round_robin"));
        QVERIFY(rowHidden(form, initial));
        QCOMPARE(NodeItem::subtitle(*document.node(*id)), QString("round_robin · 3 rounds"));

        const int before = document.undoStack()->count();
        mode->setCurrentIndex(mode->findText("adaptive"));
        emit mode->activated(mode->currentIndex());
        QCOMPARE(document.node(*id)->config.mode, std::optional(CoordinatorMode::Adaptive));
        QVERIFY(rowShown(form, initial));
        QCOMPARE(initial->value(), 0); // "default": unset
        QCOMPARE(initial->text(), QString("default"));
        QCOMPARE(NodeItem::subtitle(*document.node(*id)), QString("adaptive · 2 first · 3 rounds"));

        initial->setValue(3);
        QCOMPARE(document.node(*id)->config.initial, std::optional<int64_t>(3));
        QCOMPARE(NodeItem::subtitle(*document.node(*id)), QString("adaptive · 3 first · 3 rounds"));
        QCOMPARE(document.undoStack()->count(), before + 2);

        // Undo: the value, then the mode (and the row hides again); redo both.
        document.undoStack()->undo();
        QVERIFY(!document.node(*id)->config.initial);
        QCOMPARE(initial->value(), 0);
        document.undoStack()->undo();
        QCOMPARE(document.node(*id)->config.mode, std::optional(CoordinatorMode::RoundRobin));
        QVERIFY(rowHidden(form, initial));
        document.undoStack()->redo();
        document.undoStack()->redo();
        QCOMPARE(document.node(*id)->config.mode, std::optional(CoordinatorMode::Adaptive));
        QCOMPARE(document.node(*id)->config.initial, std::optional<int64_t>(3));
        QVERIFY(rowShown(form, initial));
        QCOMPARE(initial->value(), 3);

        // Back to "default" clears the field.
        initial->setValue(0);
        QVERIFY(!document.node(*id)->config.initial);
    }
};

QTEST_MAIN(TestCoordinatorForm)
#include "tst_coordinatorform.moc"
