#pragma once

#include "conclave/model/NodeKind.h"
#include "conclave/model/StrongId.h"

#include <QWidget>

#include <map>
#include <optional>

class QLabel;
class QStackedWidget;

namespace conclave::ui {

class EdgeForm;
class NodeForm;
class TeamDocument;

// The right-hand panel: the selected node's form (one per kind), the selected
// edge's, or a summary of the team. Room for issue 7: a run's output for the
// selected node can become another page here.
class Inspector : public QWidget {
    Q_OBJECT

public:
    explicit Inspector(TeamDocument* document, QWidget* parent = nullptr);

    void showNode(const NodeId& id);
    void showEdge(size_t index);
    void showTeam();
    NodeForm* currentNodeForm() const;
    NodeForm* formFor(NodeKind kind) const { return m_forms.at(kind); }

signals:
    void teamSettingsRequested();

private:
    void refresh();

    TeamDocument* m_document;
    QStackedWidget* m_stack;
    QLabel* m_title;
    QWidget* m_teamPage;
    QLabel* m_teamSummary;
    EdgeForm* m_edgeForm;
    std::map<NodeKind, NodeForm*> m_forms;
    std::optional<NodeId> m_node;
    std::optional<size_t> m_edge;
};

} // namespace conclave::ui
