#pragma once

// Builds a small team the way a user does: palette adds, port-to-port drags,
// inspector edits, a route label, team settings, duplicate and delete, auto
// layout. Records the team after every step, by undo-stack index.
#include "EditorChecks.h"

#include "document/TeamDocument.h"
#include "editor/TeamScene.h"
#include "inspector/EdgeForm.h"
#include "inspector/Inspector.h"
#include "inspector/NodeForm.h"
#include "inspector/PromptEditor.h"
#include "panels/TeamSettingsDialog.h"
#include "studio/MainWindow.h"

#include "conclave/io/TeamJson.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

#include <map>
#include <string>

class EditorScenario {
public:
    explicit EditorScenario(conclave::ui::MainWindow& window) : m_window(window) { record(); }

    // Runs every step; returns the first failure, or empty.
    QString run()
    {
        using conclave::NodeKind;
        using Role = conclave::ui::PortItem::Role;
        const std::pair<NodeKind, QPointF> adds[] = {
            {NodeKind::Input, {80, 120}},   {NodeKind::Router, {300, 120}},     {NodeKind::Expert, {520, 20}},
            {NodeKind::Expert, {520, 220}}, {NodeKind::Aggregator, {740, 120}}, {NodeKind::Output, {960, 120}}};
        for (const auto& [kind, at] : adds) {
            m_window.addNode(kind, &at);
            if (auto e = step())
                return *e;
        }
        const std::pair<const char*, const char*> wires[] = {{"input", "router"},        {"router", "expert"},
                                                             {"router", "expert_2"},     {"expert", "aggregator"},
                                                             {"expert_2", "aggregator"}, {"aggregator", "output"}};
        for (const auto& [from, to] : wires) {
            QString reason;
            if (!scene().connectPorts(port(from, Role::Out), port(to, Role::In), &reason))
                return QStringLiteral("connect %1 -> %2: %3").arg(from, to, reason);
            if (auto e = step())
                return *e;
        }
        // Inspector: the router's strategy and top k.
        auto* form = select("router");
        auto* strategy = qobject_cast<QComboBox*>(form->field("strategy"));
        strategy->setCurrentIndex(strategy->findText("moe_gate"));
        emit strategy->activated(strategy->currentIndex());
        if (auto e = step())
            return *e;
        qobject_cast<QSpinBox*>(form->field("top_k"))->setValue(1);
        if (auto e = step())
            return *e;
        // The first expert: a model from the picker, a label typed in (one undo step).
        form = select("expert");
        qobject_cast<QComboBox*>(form->field("model"))->setCurrentText("local/math-13b");
        if (auto e = step())
            return *e;
        QTest::keyClicks(qobject_cast<QLineEdit*>(form->field("label")), "Math");
        if (auto e = step())
            return *e;
        // The second expert: temperature and a prompt.
        form = select("expert_2");
        qobject_cast<QDoubleSpinBox*>(form->field("params/temperature"))->setValue(0.3);
        if (auto e = step())
            return *e;
        auto* prompt = qobject_cast<QPlainTextEdit*>(form->field("prompt"));
        prompt->selectAll();
        prompt->insertPlainText("Answer briefly: {{input}}");
        if (auto e = step())
            return *e;
        // The aggregator's quorum.
        form = select("aggregator");
        qobject_cast<QSpinBox*>(form->field("quorum"))->setValue(1);
        if (auto e = step())
            return *e;
        // A route label, through the edge form.
        scene().clearSelection();
        scene().edgeItems()[1]->setSelected(true);
        auto* edgeForm = m_window.findChild<conclave::ui::EdgeForm*>();
        edgeForm->routeLabel()->setText("math");
        emit edgeForm->routeLabel()->editingFinished();
        if (auto e = step())
            return *e;
        // Team settings.
        conclave::ui::TeamSettingsDialog dialog(conclave::ui::TeamSettings::of(document().team()));
        dialog.findChild<QLineEdit*>()->setText("Built in the editor");
        document().requestSetSettings(dialog.settings());
        if (auto e = step())
            return *e;
        // Duplicate an expert, then delete the copy.
        scene().selectNodes({conclave::NodeId("expert_2")});
        m_window.duplicateSelection();
        if (auto e = step())
            return *e;
        if (scene().selectedNodes().size() != 1 || scene().selectedNodes().front().str() != "expert_3")
            return QStringLiteral("duplicate did not select expert_3");
        m_window.deleteSelection();
        if (auto e = step())
            return *e;
        m_window.action("actionAutoLayout")->trigger();
        if (auto e = step())
            return *e;
        return {};
    }

    // The team as JSON text after each undo-stack index that was reached.
    const std::map<int, std::string>& snapshots() const { return m_snapshots; }

private:
    conclave::ui::TeamDocument& document() { return *m_window.document(); }
    conclave::ui::TeamScene& scene() { return *m_window.scene(); }

    const conclave::ui::PortItem* port(const char* node, conclave::ui::PortItem::Role role)
    {
        auto* item = scene().nodeItem(conclave::NodeId(node));
        return item ? item->port(role) : nullptr;
    }

    conclave::ui::NodeForm* select(const char* node)
    {
        scene().selectNodes({conclave::NodeId(node)});
        return m_window.inspector()->currentNodeForm();
    }

    void record() { m_snapshots[document().undoStack()->index()] = conclave::teamToJsonText(document().team()); }

    std::optional<QString> step()
    {
        const int before = m_lastIndex;
        m_lastIndex = document().undoStack()->index();
        if (m_lastIndex == before)
            return QStringLiteral("step %1 made no undoable change").arg(m_lastIndex);
        record();
        const QString problem = sceneInconsistency(document(), scene());
        if (!problem.isEmpty())
            return QStringLiteral("after step %1: %2").arg(m_lastIndex).arg(problem);
        return std::nullopt;
    }

    conclave::ui::MainWindow& m_window;
    std::map<int, std::string> m_snapshots;
    int m_lastIndex = 0;
};
