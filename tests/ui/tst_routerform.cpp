// RouterForm in the inspector: its strategies and fields come from the
// registry (RouterStrategies); each field's row shows only for the strategies
// that have it (every one while no strategy is set); edits are undo steps;
// the canvas subtitle names the strategy, and the model of one that calls a model.
#include <QtTest>

#include "support/QtStrings.h"

#include "document/TeamDocument.h"
#include "editor/NodeItem.h"
#include "inspector/Inspector.h"
#include "inspector/NodeForm.h"

#include "conclave/model/RouterStrategies.h"
#include "conclave/model/Team.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>
#include <QUndoStack>

using namespace conclave;
using namespace conclave::ui;

namespace {

// The keys of the strategy fields whose rows are shown, in registry order.
QStringList shownFields(QWidget* owner, NodeForm* form)
{
    QStringList out;
    for (const RouterField* field : RouterStrategies::fields()) {
        QWidget* widget = form->field(QString::fromUtf8(field->key));
        for (auto* layout : owner->findChildren<QFormLayout*>()) {
            if (widget && layout->indexOf(widget) >= 0 && layout->isRowVisible(widget))
                out << QString::fromUtf8(field->key);
        }
    }
    return out;
}

void choose(QComboBox* combo, const QString& text)
{
    combo->setCurrentIndex(combo->findText(text));
    emit combo->activated(combo->currentIndex());
}

} // namespace

class TestRouterForm : public QObject {
    Q_OBJECT

private slots:
    void strategiesAndTheirFieldsFromTheRegistry()
    {
        TeamDocument document;
        document.newTeam();
        const auto id = document.requestAddNode(NodeKind::Router, Position{0, 0});
        QVERIFY(id);
        Inspector inspector(&document);
        inspector.showNode(*id);
        NodeForm* form = inspector.currentNodeForm();
        QVERIFY(form);
        auto* strategy = qobject_cast<QComboBox*>(form->field("strategy"));
        QVERIFY(strategy);
        QStringList names;
        for (int i = 0; i < strategy->count(); ++i)
            names << strategy->itemText(i);
        QCOMPARE(names, (QStringList{"(not set)", "all", "keyword", "moe_gate", "llm", "learned"}));

        // A new router broadcasts: no field of another strategy shows.
        QCOMPARE(strategy->currentText(), QString("all"));
        QCOMPARE(shownFields(form, form), QStringList());
        QCOMPARE(NodeItem::subtitle(*document.node(*id)), QString("all"));

        const int before = document.undoStack()->count();
        choose(strategy, "keyword");
        QCOMPARE(document.node(*id)->config.routerStrategy, std::optional(RouterStrategy::Keyword));
        QCOMPARE(shownFields(form, form), (QStringList{"routes", "default"}));

        choose(strategy, "moe_gate");
        QCOMPARE(shownFields(form, form), (QStringList{"top_k", "min_weight"}));
        auto* topK = qobject_cast<QSpinBox*>(form->field("top_k"));
        QVERIFY(topK);
        QCOMPARE(topK->minimum(), 0); // "default": unset; 1 is the registry's least top_k
        QCOMPARE(topK->maximum(), 1000);
        topK->setValue(2);
        QCOMPARE(document.node(*id)->config.topK, std::optional<int64_t>(2));
        QCOMPARE(NodeItem::subtitle(*document.node(*id)), QString("moe_gate · top 2"));

        choose(strategy, "llm");
        QCOMPARE(shownFields(form, form), (QStringList{"default"}));
        QCOMPARE(document.undoStack()->count(), before + 4);

        choose(strategy, "learned");
        QCOMPARE(shownFields(form, form),
                 (QStringList{"router_file", "policy", "threshold", "cost_weight", "strong", "weak"}));
        QCOMPARE(NodeItem::subtitle(*document.node(*id)), QString("learned"));
        QCOMPARE(document.undoStack()->count(), before + 5);

        // Without a strategy every field shows.
        choose(strategy, "(not set)");
        QCOMPARE(shownFields(form, form), (QStringList{"routes", "default", "top_k", "min_weight", "router_file",
                                                       "policy", "threshold", "cost_weight", "strong", "weak"}));

        // Undo back to moe_gate (through learned and llm): its fields show again.
        document.undoStack()->undo();
        document.undoStack()->undo();
        document.undoStack()->undo();
        QCOMPARE(document.node(*id)->config.routerStrategy, std::optional(RouterStrategy::MoeGate));
        QCOMPARE(shownFields(form, form), (QStringList{"top_k", "min_weight"}));
        QCOMPARE(topK->value(), 2);
    }
};

QTEST_MAIN(TestRouterForm)
#include "tst_routerform.moc"
