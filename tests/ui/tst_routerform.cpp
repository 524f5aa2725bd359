// RouterForm in the inspector: its strategies and fields come from the
// registry (RouterStrategies); each field's row shows only for the strategies
// that have it (every one while no strategy is set); edits are undo steps;
// the canvas subtitle names the strategy, and the model of one that calls a model.
// A learned router's form says, under its fields, which file it reads and how
// it would route that file's held-out tasks (LearnedRouterSummary over core's
// RouterHeldoutShare), recounted as its policy, threshold and file change.
#include <QtTest>

#include "support/QtStrings.h"

#include "document/TeamDocument.h"
#include "editor/NodeItem.h"
#include "inspector/Inspector.h"
#include "inspector/LearnedRouterSummary.h"
#include "inspector/NodeForm.h"
#include "inspector/RouterForm.h"

#include "conclave/model/RouterStrategies.h"
#include "conclave/model/Team.h"
#include "conclave/session/EngineResources.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
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

// Types `text` into a line edit as a user would (each typed text is an edit).
void type(QWidget* field, const QString& text)
{
    auto* edit = qobject_cast<QLineEdit*>(field);
    QVERIFY(edit);
    edit->setText(text);
    emit edit->textEdited(text);
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

    // The example team's learned router: its file, and the share of its 120 held-out tasks
    // sent to the strong route at the calibrated threshold; recounted on every change, and
    // a readable warning, not a crash, when the file cannot be used.
    void learnedRouterPrediction()
    {
        const QString examples = QStringLiteral(CONCLAVE_RESOURCES "/examples");
        TeamDocument document;
        QCOMPARE(document.load(examples + "/learned-router.team.json"), QString());
        std::vector<std::string> errors;
        auto resources = std::make_shared<const EngineResources>(EngineResources::load(CONCLAVE_RESOURCES, errors));
        QVERIFY(errors.empty());
        Inspector inspector(&document);
        inspector.setEngineResources(resources, CONCLAVE_RESOURCES);
        inspector.showNode(NodeId("route"));
        auto* form = qobject_cast<RouterForm*>(inspector.currentNodeForm());
        QVERIFY(form);
        LearnedRouterSummary* summary = form->learnedSummary();
        QTRY_VERIFY(!summary->isCounting());
        QCOMPARE(summary->fileLine(),
                 "File: " + QDir::cleanPath(examples) +
                     "/learned-router.router.json (logistic over local/frontier-70b, local/generalist-7b)");
        QCOMPARE(summary->predictionLine(),
                 QString("Predicted: 28 % of 120 held-out tasks to frontier (local/frontier-70b, strong)"));
        QVERIFY(!summary->isWarning());
        QVERIFY(!inspector.isSettling());
        // Rows of the form, shown for a learned router only.
        auto* routing = form->findChildren<QFormLayout*>().front();
        QVERIFY(routing->isRowVisible(summary->fileLabel()));
        QVERIFY(routing->isRowVisible(summary->predictionLabel()));

        // A lower threshold sends more tasks to the strong route.
        auto* threshold = qobject_cast<QDoubleSpinBox*>(form->field("threshold"));
        QVERIFY(threshold);
        threshold->setValue(0.35);
        QCOMPARE(document.node(NodeId("route"))->config.routeThreshold, std::optional(0.35));
        QTRY_COMPARE(summary->predictionLine(),
                     QString("Predicted: 55 % of 120 held-out tasks to frontier (local/frontier-70b, strong)"));

        // cheapest_above: a share per route, the dearest model's route the strong one; every
        // generalist p reaches 0.35, a fifth reach 0.60.
        type(form->field("policy"), "cheapest_above");
        QTRY_COMPARE(summary->predictionLine(),
                     QString("Predicted over 120 held-out tasks: generalist (local/generalist-7b) 100 %, "
                             "frontier (local/frontier-70b, strong) 0 %"));
        threshold->setValue(0.6);
        QTRY_COMPARE(summary->predictionLine(),
                     QString("Predicted over 120 held-out tasks: generalist (local/generalist-7b) 20 %, "
                             "frontier (local/frontier-70b, strong) 80 %"));

        // A file that is not there: a warning line, the fields untouched.
        type(form->field("router_file"), "gone.router.json");
        QTRY_COMPARE(summary->predictionLine(),
                     QString(QChar(0x26A0)) + " No prediction: router file not found: " + QDir::cleanPath(examples) + "/gone.router.json");
        QVERIFY(summary->isWarning());
        QCOMPARE(summary->fileLine(), "File: " + QDir::cleanPath(examples) + "/gone.router.json");

        // Undo the four edits: the example's own prediction again.
        for (int i = 0; i < 4; ++i)
            document.undoStack()->undo();
        QTRY_COMPARE(summary->predictionLine(),
                     QString("Predicted: 28 % of 120 held-out tasks to frontier (local/frontier-70b, strong)"));
        QVERIFY(!summary->isWarning());

        // Another strategy: the rows go.
        choose(qobject_cast<QComboBox*>(form->field("strategy")), "moe_gate");
        QVERIFY(!routing->isRowVisible(summary->fileLabel()));
        QVERIFY(!routing->isRowVisible(summary->predictionLabel()));
    }
};

QTEST_MAIN(TestRouterForm)
#include "tst_routerform.moc"
