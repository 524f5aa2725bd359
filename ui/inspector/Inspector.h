#pragma once

#include "conclave/model/NodeKind.h"
#include "conclave/model/StrongId.h"

#include <QWidget>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>

class QLabel;
class QStackedWidget;

namespace conclave {
struct EngineResources;
} // namespace conclave

namespace conclave::ui {

class EdgeForm;
class NodeForm;
class TeamDocument;

// The right-hand panel: the selected node's form (one per kind), the selected
// edge's, or a summary of the team. Above a node's form, one read-only line of
// its run (setRunLine: what the output dock says of it — at a replay's
// playhead, in a run tab's run, or in the live or last run); the full output
// stays in the output dock.
class Inspector : public QWidget {
    Q_OBJECT

public:
    explicit Inspector(TeamDocument* document, QWidget* parent = nullptr);

    void showNode(const NodeId& id);
    void showEdge(size_t index);
    void showTeam();
    NodeForm* currentNodeForm() const;
    NodeForm* formFor(NodeKind kind) const { return m_forms.at(kind); }
    // What the forms read beyond the team: the engine's resources and their folder (a learned router's prediction).
    void setEngineResources(std::shared_ptr<const EngineResources> resources, std::filesystem::path resourcesDir);
    // True while a form is still working out something it shows (a learned router's prediction).
    bool isSettling() const;
    // The run line shown; empty when none is (no node shown, or none said of it).
    QString runLine() const;

public slots:
    // The line for `node`, shown while it is the node shown; empty: none.
    void setRunLine(const conclave::NodeId& node, const QString& line);

signals:
    void teamSettingsRequested();

private:
    void refresh();
    void updateRunLine();

    TeamDocument* m_document;
    QStackedWidget* m_stack;
    QLabel* m_title;
    QLabel* m_runLine;
    std::optional<NodeId> m_runLineNode;
    QWidget* m_teamPage;
    QLabel* m_teamSummary;
    EdgeForm* m_edgeForm;
    std::map<NodeKind, NodeForm*> m_forms;
    std::optional<NodeId> m_node;
    std::optional<size_t> m_edge;
};

} // namespace conclave::ui
