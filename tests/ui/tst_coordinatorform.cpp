// CoordinatorForm in the inspector: mode adaptive is offered, its "Initial
// members" field shows in that mode only (and decompose's "Max subtasks" in
// decompose only), and every edit is one undo step
// that undoes and redoes exactly; the canvas subtitle says "adaptive · N first";
// a mode that cannot hold a member meeting brings the validator's error.
#include <QtTest>

#include "support/QtStrings.h"

#include "document/TeamDocument.h"
#include "editor/NodeItem.h"
#include "inspector/Inspector.h"
#include "inspector/NodeForm.h"

#include "conclave/model/Team.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
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

    // Max subtasks: shown for decompose only, "default (N)" naming the member count it stands for;
    // each edit one undo step; the saved version follows (3 with it, 1 without); in another mode the
    // validator warns at the key.
    void decomposeAndItsMaxSubtasksUndoably()
    {
        TeamDocument document;
        document.newTeam();
        const auto id = document.requestAddNode(NodeKind::Coordinator, Position{0, 0});
        const auto e1 = document.requestAddNode(NodeKind::Expert, Position{0, 200});
        const auto e2 = document.requestAddNode(NodeKind::Expert, Position{200, 200});
        QVERIFY(id && e1 && e2);
        QVERIFY(document.requestConnect(*id, *e1, EdgeRole::Member));
        QVERIFY(document.requestConnect(*id, *e2, EdgeRole::Member));
        Inspector inspector(&document);
        inspector.showNode(*id);
        NodeForm* form = inspector.currentNodeForm();
        QVERIFY(form);
        auto* mode = qobject_cast<QComboBox*>(form->field("mode"));
        auto* maxSubtasks = qobject_cast<QSpinBox*>(form->field("max_subtasks"));
        QVERIFY(mode && maxSubtasks);
        QVERIFY(rowHidden(form, maxSubtasks));

        const int before = document.undoStack()->count();
        mode->setCurrentIndex(mode->findText("decompose"));
        emit mode->activated(mode->currentIndex());
        QVERIFY(rowShown(form, maxSubtasks));
        QCOMPARE(maxSubtasks->value(), 0);
        QCOMPARE(maxSubtasks->text(), QString("default (2)"));
        QCOMPARE(formatVersionNeeded(document.team()), int64_t(1));

        maxSubtasks->setValue(3);
        QCOMPARE(document.node(*id)->config.maxSubtasks, std::optional<int64_t>(3));
        QCOMPARE(document.undoStack()->count(), before + 2);
        QCOMPARE(formatVersionNeeded(document.team()), int64_t(3));
        QCOMPARE(NodeItem::subtitle(*document.node(*id)), QString("decompose · ≤ 3 subtasks · 3 rounds"));

        document.undoStack()->undo();
        QVERIFY(!document.node(*id)->config.maxSubtasks);
        QCOMPARE(maxSubtasks->value(), 0);
        QCOMPARE(formatVersionNeeded(document.team()), int64_t(1));
        document.undoStack()->redo();
        QCOMPARE(document.node(*id)->config.maxSubtasks, std::optional<int64_t>(3));
        QCOMPARE(maxSubtasks->value(), 3);

        // A third member: the default it stands for follows.
        const auto e3 = document.requestAddNode(NodeKind::Expert, Position{400, 200});
        QVERIFY(e3 && document.requestConnect(*id, *e3, EdgeRole::Member));
        maxSubtasks->setValue(0);
        QVERIFY(!document.node(*id)->config.maxSubtasks);
        QCOMPARE(maxSubtasks->text(), QString("default (3)"));
        document.undoStack()->undo();
        QCOMPARE(document.node(*id)->config.maxSubtasks, std::optional<int64_t>(3));

        // In a debate the value stays, hidden, and the validator says it does nothing there.
        mode->setCurrentIndex(mode->findText("debate"));
        emit mode->activated(mode->currentIndex());
        QVERIFY(rowHidden(form, maxSubtasks));
        QCOMPARE(document.node(*id)->config.maxSubtasks, std::optional<int64_t>(3));
        const auto index = document.team().indexOf(*id);
        QVERIFY(index);
        const std::string pointer = "/nodes/" + std::to_string(*index) + "/max_subtasks";
        QStringList atTheKey;
        for (const auto& p : document.problems()) {
            if (p.pointer == pointer)
                atTheKey << QString::fromStdString((p.isError() ? "error: " : "warning: ") + p.message);
        }
        QCOMPARE(atTheKey, QStringList{"warning: max_subtasks is read only in mode decompose; this coordinator's "
                                       "mode is debate"});
    }

    // Scorer file: shown for cascade and adaptive only; typing is one undo step; the team needs
    // version 3 with it; in a debate the validator refuses it at the key.
    void cascadeAndItsScorerUndoably()
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
        auto* scorer = qobject_cast<QLineEdit*>(form->field("scorer"));
        QVERIFY(mode && scorer);
        QVERIFY(rowHidden(form, scorer));
        mode->setCurrentIndex(mode->findText("cascade"));
        emit mode->activated(mode->currentIndex());
        QVERIFY(rowShown(form, scorer));
        const int before = document.undoStack()->count();
        scorer->setText("scorer.json");
        emit scorer->textEdited(scorer->text());
        QCOMPARE(document.node(*id)->config.scorer, std::optional<std::string>("scorer.json"));
        QCOMPARE(document.undoStack()->count(), before + 1);
        QCOMPARE(formatVersionNeeded(document.team()), int64_t(3));
        document.undoStack()->undo();
        QVERIFY(!document.node(*id)->config.scorer);
        QCOMPARE(scorer->text(), QString());
        document.undoStack()->redo();
        QCOMPARE(scorer->text(), QString("scorer.json"));

        mode->setCurrentIndex(mode->findText("adaptive"));
        emit mode->activated(mode->currentIndex());
        QVERIFY(rowShown(form, scorer));
        mode->setCurrentIndex(mode->findText("debate"));
        emit mode->activated(mode->currentIndex());
        QVERIFY(rowHidden(form, scorer));
        const auto index = document.team().indexOf(*id);
        QVERIFY(index);
        const std::string pointer = "/nodes/" + std::to_string(*index) + "/scorer";
        QStringList atTheKey;
        for (const auto& p : document.problems()) {
            if (p.pointer == pointer)
                atTheKey << QString::fromStdString((p.isError() ? "error: " : "warning: ") + p.message);
        }
        QCOMPARE(atTheKey, QStringList{"error: a scorer replaces stated confidence in modes cascade and adaptive; "
                                       "this coordinator's mode is debate"});
    }

    // A cascade holding a debate meeting: switching the cascade to a mode that cannot hold a
    // meeting (in the inspector) puts the validator's error on the member edge; undo takes it away.
    void aModeThatCannotHoldAMeeting()
    {
        TeamDocument document;
        document.newTeam();
        const auto outer = document.requestAddNode(NodeKind::Coordinator, Position{0, 0});
        const auto inner = document.requestAddNode(NodeKind::Coordinator, Position{0, 200});
        const auto expert = document.requestAddNode(NodeKind::Expert, Position{0, 400});
        QVERIFY(outer && inner && expert);
        auto config = document.node(*outer)->config;
        config.mode = CoordinatorMode::Cascade;
        QVERIFY(document.requestSetConfig(*outer, config));
        QVERIFY(document.requestConnect(*outer, *inner, EdgeRole::Member));
        QVERIFY(document.requestConnect(*inner, *expert, EdgeRole::Member));
        const size_t edge = document.team().edges.size() - 2;
        const auto errorsAtTheEdge = [&] {
            QStringList out;
            for (const auto& p : document.problems()) {
                if (p.isError() && p.edge == edge)
                    out << QString::fromStdString(p.pointer + ": " + p.message);
            }
            return out;
        };
        QCOMPARE(errorsAtTheEdge(), QStringList());

        Inspector inspector(&document);
        inspector.showNode(*outer);
        auto* mode = qobject_cast<QComboBox*>(inspector.currentNodeForm()->field("mode"));
        QVERIFY(mode);
        const QString pointer = QStringLiteral("/edges/%1/role: ").arg(edge);
        const QString outerId = QString::fromStdString(outer->str());
        const QString innerId = QString::fromStdString(inner->str());
        for (const QString m : {"debate", "round_robin", "decompose"}) {
            mode->setCurrentIndex(mode->findText(m));
            emit mode->activated(mode->currentIndex());
            QCOMPARE(errorsAtTheEdge(),
                     QStringList{pointer + QString("coordinator \"%1\" cannot be a member of \"%2\": only a cascade or "
                                                   "adaptive coordinator may have a coordinator as a member (\"%2\" "
                                                   "is a %3)")
                                               .arg(innerId, outerId, m)});
        }
        mode->setCurrentIndex(mode->findText("adaptive"));
        emit mode->activated(mode->currentIndex());
        QCOMPARE(errorsAtTheEdge(), QStringList());
        document.undoStack()->undo(); // back to decompose
        QCOMPARE(errorsAtTheEdge().size(), 1);
        for (int i = 0; i < 3; ++i)
            document.undoStack()->undo(); // round_robin, debate, cascade
        QCOMPARE(document.node(*outer)->config.mode, std::optional(CoordinatorMode::Cascade));
        QCOMPARE(errorsAtTheEdge(), QStringList());
    }
};

QTEST_MAIN(TestCoordinatorForm)
#include "tst_coordinatorform.moc"
