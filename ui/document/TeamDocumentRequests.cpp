// TeamDocument's request…() edits: each checks, builds one undo command and
// pushes it, or changes nothing and returns false.
#include "document/TeamDocument.h"

#include "document/AddItemsCommand.h"
#include "document/MoveNodesCommand.h"
#include "document/RemoveItemsCommand.h"
#include "document/RenameNodeCommand.h"
#include "document/SetEdgeCommand.h"
#include "document/SetNodeConfigCommand.h"
#include "document/SetTeamSettingsCommand.h"
#include "timeline/TimeFormat.h"

#include "conclave/layout/LayeredLayout.h"
#include "conclave/model/NodeFactory.h"
#include "conclave/model/PromptTemplate.h"
#include "conclave/validate/ConnectionRules.h"

#include <QUndoStack>

#include <algorithm>
#include <map>
#include <set>

namespace conclave::ui {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

std::optional<NodeId> TeamDocument::requestAddNode(NodeKind kind, Position pos)
{
    const NodeId id = NodeFactory::uniqueId(m_team, toString(kind));
    TeamFragment items;
    items.nodes.emplace_back(m_team.nodes.size(), NodeFactory::make(kind, id, pos));
    m_undo->push(new AddItemsCommand(this, std::move(items), tr("Add %1").arg(q(id.str()))));
    return id;
}

std::vector<NodeId> TeamDocument::requestInsert(const Team& fragment, Position offset, const QString& text)
{
    if (fragment.nodes.empty())
        return {};
    Team scratch = m_team; // ids are made unique against the team and the nodes already renamed
    std::map<NodeId, NodeId> renamed;
    TeamFragment items;
    std::vector<NodeId> ids;
    for (const auto& n : fragment.nodes) {
        if (renamed.contains(n.id))
            continue; // a duplicate id in the pasted text: the first node wins
        Node copy = n;
        copy.id = NodeFactory::uniqueId(scratch, n.id.str());
        const Position at = n.pos.value_or(Position{});
        copy.pos = Position{at.x + offset.x, at.y + offset.y};
        renamed.emplace(n.id, copy.id);
        ids.push_back(copy.id);
        scratch.nodes.push_back(copy);
        items.nodes.emplace_back(scratch.nodes.size() - 1, std::move(copy));
    }
    for (const auto& e : fragment.edges) {
        const auto from = renamed.find(e.from);
        const auto to = renamed.find(e.to);
        if (from == renamed.end() || to == renamed.end())
            continue;
        Edge copy = e;
        copy.from = from->second;
        copy.to = to->second;
        scratch.edges.push_back(copy);
        items.edges.emplace_back(scratch.edges.size() - 1, std::move(copy));
    }
    m_undo->beginMacro(text);
    TeamSettings settings = TeamSettings::of(m_team);
    bool newBackends = false;
    for (const auto& [name, backend] : fragment.backends)
        newBackends = settings.backends.emplace(name, backend).second || newBackends;
    if (newBackends)
        m_undo->push(new SetTeamSettingsCommand(this, TeamSettings::of(m_team), settings));
    m_undo->push(new AddItemsCommand(this, std::move(items), text));
    m_undo->endMacro();
    return ids;
}

std::optional<std::string> TeamDocument::connectionRefusal(const NodeId& from, const NodeId& to, EdgeRole role) const
{
    return ConnectionRules::refusal(m_team, from, to, role);
}

bool TeamDocument::requestConnect(const NodeId& from, const NodeId& to, EdgeRole role, QString* reason)
{
    if (const auto refusal = connectionRefusal(from, to, role)) {
        if (reason)
            *reason = q(*refusal);
        return false;
    }
    Edge edge;
    edge.from = from;
    edge.to = to;
    edge.role = role;
    // A router that chooses by label gets one on the new edge; a broadcast router's edges need none.
    if (role == EdgeRole::Flow && ConnectionRules::needsRouteLabel(*node(from)))
        edge.when = ConnectionRules::newRouteLabel(m_team, from, to);
    TeamFragment items;
    items.edges.emplace_back(m_team.edges.size(), std::move(edge));
    m_undo->push(new AddItemsCommand(this, std::move(items), tr("Connect %1 to %2").arg(q(from.str()), q(to.str()))));
    return true;
}

bool TeamDocument::requestRemove(const std::vector<NodeId>& nodes, const std::vector<size_t>& edges)
{
    std::set<NodeId> gone;
    TeamFragment items;
    for (size_t i = 0; i < m_team.nodes.size(); ++i) {
        if (std::find(nodes.begin(), nodes.end(), m_team.nodes[i].id) != nodes.end()) {
            gone.insert(m_team.nodes[i].id);
            items.nodes.emplace_back(i, m_team.nodes[i]);
        }
    }
    for (size_t i = 0; i < m_team.edges.size(); ++i) {
        const auto& e = m_team.edges[i];
        if (gone.contains(e.from) || gone.contains(e.to) || std::find(edges.begin(), edges.end(), i) != edges.end())
            items.edges.emplace_back(i, e);
    }
    if (items.empty())
        return false;
    const QString text =
        items.nodes.size() == 1 && items.edges.size() <= 1 && items.nodes.empty() == false
            ? tr("Delete %1").arg(q(items.nodes.front().second.id.str()))
            : tr("Delete %1")
                  .arg(TimeFormat::count(int64_t(items.nodes.size() + items.edges.size()), tr("item"), tr("items")));
    m_undo->push(new RemoveItemsCommand(this, std::move(items), text));
    return true;
}

bool TeamDocument::requestMove(const std::vector<std::pair<NodeId, Position>>& moves, const QString& text)
{
    MoveNodesCommand::Positions before;
    MoveNodesCommand::Positions after;
    for (const auto& [id, pos] : moves) {
        const Node* n = node(id);
        if (!n || n->pos == pos)
            continue;
        before.emplace_back(id, n->pos);
        after.emplace_back(id, pos);
    }
    if (after.empty())
        return false;
    m_undo->push(new MoveNodesCommand(
        this, std::move(before), std::move(after),
        text.isEmpty() ? tr("Move %1").arg(TimeFormat::count(int64_t(after.size()), tr("node"), tr("nodes"))) : text));
    return true;
}

bool TeamDocument::requestSetConfig(const NodeId& id, const NodeConfig& config, int mergeKey)
{
    const Node* n = node(id);
    if (!n || n->config == config)
        return false;
    Node after = *n;
    after.config = config;
    // A broadcast router that starts choosing by label needs labels on its unlabelled edges, which
    // get them as connecting would have given them, in the same undo step. Labels already there are
    // the user's and stay, whatever the strategy.
    std::vector<size_t> unlabelled;
    if (!ConnectionRules::needsRouteLabel(*n) && ConnectionRules::needsRouteLabel(after)) {
        for (size_t i = 0; i < m_team.edges.size(); ++i) {
            const auto& e = m_team.edges[i];
            if (e.from == id && !e.isMember() && (!e.when || e.when->empty()))
                unlabelled.push_back(i);
        }
    }
    if (unlabelled.empty()) {
        m_undo->push(new SetNodeConfigCommand(this, id, n->config, config, mergeKey));
        return true;
    }
    m_undo->beginMacro(tr("Edit %1").arg(q(id.str())));
    m_undo->push(new SetNodeConfigCommand(this, id, n->config, config, -1));
    for (const size_t i : unlabelled) {
        Edge edge = m_team.edges[i];
        edge.when = ConnectionRules::newRouteLabel(m_team, edge.from, edge.to);
        m_undo->push(new SetEdgeCommand(this, i, m_team.edges[i], edge, tr("Edit route label")));
    }
    m_undo->endMacro();
    return true;
}

bool TeamDocument::requestRename(const NodeId& from, const NodeId& to, QString* reason)
{
    const auto refuse = [&](const QString& why) {
        if (reason)
            *reason = why;
        return false;
    };
    if (!node(from))
        return refuse(tr("unknown node \"%1\"").arg(q(from.str())));
    if (from == to)
        return false;
    if (!NodeFactory::isValidId(to.str()))
        return refuse(tr("an id may only use %1")
                          .arg(QString::fromLatin1(NodeFactory::kIdCharacters.data(),
                                                   qsizetype(NodeFactory::kIdCharacters.size()))));
    if (node(to))
        return refuse(tr("the id \"%1\" is already used").arg(q(to.str())));
    // Prompts that name the node ({{from.OLD}}) follow it, in the same undo step.
    std::vector<std::pair<NodeId, NodeConfig>> prompts;
    for (const auto& n : m_team.nodes) {
        NodeConfig config = n.config;
        for (auto* text : {&config.call.system, &config.call.prompt}) {
            if (*text)
                *text = PromptTemplate::renameNode(**text, from.str(), to.str());
        }
        if (config != n.config)
            prompts.emplace_back(n.id == from ? to : n.id, std::move(config));
    }
    m_undo->beginMacro(tr("Rename %1 to %2").arg(q(from.str()), q(to.str())));
    m_undo->push(new RenameNodeCommand(this, from, to));
    for (auto& [id, config] : prompts)
        m_undo->push(new SetNodeConfigCommand(this, id, node(id)->config, std::move(config), -1));
    m_undo->endMacro();
    return true;
}

bool TeamDocument::requestSetRouteLabel(size_t index, const std::optional<std::string>& when)
{
    if (index >= m_team.edges.size() || m_team.edges[index].when == when)
        return false;
    Edge after = m_team.edges[index];
    after.when = when;
    m_undo->push(new SetEdgeCommand(this, index, m_team.edges[index], after, tr("Edit route label")));
    return true;
}

bool TeamDocument::requestSetSettings(const TeamSettings& settings)
{
    const auto before = TeamSettings::of(m_team);
    if (before == settings)
        return false;
    m_undo->push(new SetTeamSettingsCommand(this, before, settings));
    return true;
}

bool TeamDocument::requestAutoLayout()
{
    const auto result = LayeredLayout::compute(LayeredLayout::graphOf(m_team));
    std::vector<std::pair<NodeId, Position>> moves;
    moves.reserve(m_team.nodes.size());
    for (size_t i = 0; i < m_team.nodes.size(); ++i)
        moves.emplace_back(m_team.nodes[i].id, result.positions[i]);
    return requestMove(moves, tr("Auto layout"));
}

} // namespace conclave::ui
