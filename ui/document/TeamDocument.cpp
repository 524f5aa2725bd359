#include "document/TeamDocument.h"

#include "conclave/io/TeamFile.h"
#include "conclave/model/DefaultValues.h"
#include "conclave/validate/Validator.h"

#include <QFileInfo>
#include <QUndoStack>

#include <algorithm>

namespace conclave::ui {

TeamDocument::TeamDocument(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this))
{
    qRegisterMetaType<conclave::NodeId>();
    connect(m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
    newTeam();
}

TeamDocument::~TeamDocument() = default;

const Node* TeamDocument::node(const NodeId& id) const
{
    const auto it = m_index.find(id);
    return it == m_index.end() ? nullptr : &m_team.nodes[it->second];
}

QString TeamDocument::displayName() const
{
    return m_filePath.isEmpty() ? tr("Untitled") : QFileInfo(m_filePath).fileName();
}

std::vector<const Problem*> TeamDocument::problemsOf(const NodeId& id) const
{
    std::vector<const Problem*> out;
    const auto it = m_problemsByNode.find(id);
    if (it != m_problemsByNode.end()) {
        for (const size_t i : it->second)
            out.push_back(&m_problems[i]);
    }
    return out;
}

bool TeamDocument::isModified() const
{
    return !m_undo->isClean();
}

void TeamDocument::setLocalModels(std::set<std::string> models)
{
    m_localModels = std::move(models);
    revalidate();
}

void TeamDocument::newTeam()
{
    Team team;
    team.name = tr("Untitled team").toStdString();
    Backend local;
    local.kind = BackendKind::LocalMoe;
    local.seed = int64_t(defaults::kSeed);
    team.backends.emplace(BackendName("local"), local);
    Defaults defaults;
    defaults.backend = BackendName("local");
    team.defaults = defaults;
    resetTo(std::move(team), {}, {});
}

QString TeamDocument::load(const QString& path)
{
    auto result = loadTeamFile(path.toStdString());
    if (!result.team) {
        QStringList lines;
        const auto name = QFileInfo(path).fileName().toStdString();
        for (const auto& problem : result.problems) // warnings too: they may explain the error after them
            lines << QString::fromStdString(formatProblem(problem, name));
        return lines.isEmpty() ? tr("%1: cannot be read").arg(QFileInfo(path).fileName()) : lines.join('\n');
    }
    resetTo(std::move(*result.team), path, std::move(result.problems));
    return {};
}

void TeamDocument::setTeam(Team team, const QString& path)
{
    resetTo(std::move(team), path, {});
}

void TeamDocument::resetTo(Team team, const QString& path, std::vector<Problem> loadProblems)
{
    m_team = std::move(team);
    m_loadProblems = std::move(loadProblems);
    reindex();
    m_undo->clear();
    const bool pathChanged = m_filePath != path;
    m_filePath = path;
    revalidate();
    emit teamReset();
    if (pathChanged)
        emit filePathChanged(m_filePath);
    emit modifiedChanged(false);
}

QString TeamDocument::save(const QString& path)
{
    if (auto error = saveTeamFile(m_team, path.toStdString()))
        return QString::fromStdString(*error);
    m_loadProblems.clear();
    const bool pathChanged = m_filePath != path;
    m_filePath = path;
    m_undo->setClean();
    revalidate();
    if (pathChanged)
        emit filePathChanged(m_filePath);
    return {};
}

QString TeamDocument::exportTo(const QString& path) const
{
    if (auto error = saveTeamFile(m_team, path.toStdString()))
        return QString::fromStdString(*error);
    return {};
}

void TeamDocument::reindex()
{
    m_index.clear();
    m_index.reserve(m_team.nodes.size());
    for (size_t i = 0; i < m_team.nodes.size(); ++i)
        m_index.emplace(m_team.nodes[i].id, i); // a duplicate id keeps its first node, as the validator reports
}

std::filesystem::path TeamDocument::folder() const
{
    if (m_filePath.isEmpty())
        return {};
    return std::filesystem::path(m_filePath.toStdString()).parent_path();
}

void TeamDocument::revalidate()
{
    m_problems = m_loadProblems;
    ValidationContext context;
    context.localModels = m_localModels;
    context.teamFolder = folder();
    auto more = validate(m_team, context);
    m_problems.insert(m_problems.end(), more.begin(), more.end());
    m_problemsByNode.clear();
    for (size_t i = 0; i < m_problems.size(); ++i) {
        const auto& p = m_problems[i];
        if (p.node)
            m_problemsByNode[*p.node].push_back(i);
        else if (p.edge && *p.edge < m_team.edges.size())
            m_problemsByNode[m_team.edges[*p.edge].from].push_back(i);
    }
    emit problemsChanged();
}

void TeamDocument::applyInsert(const TeamFragment& fragment)
{
    for (const auto& [index, n] : fragment.nodes)
        m_team.nodes.insert(m_team.nodes.begin() + static_cast<std::ptrdiff_t>(std::min(index, m_team.nodes.size())),
                            n);
    for (const auto& [index, e] : fragment.edges)
        m_team.edges.insert(m_team.edges.begin() + static_cast<std::ptrdiff_t>(std::min(index, m_team.edges.size())),
                            e);
    reindex();
    revalidate();
    for (const auto& [index, n] : fragment.nodes)
        emit nodeAdded(n.id);
    emit edgesChanged();
}

void TeamDocument::applyErase(const TeamFragment& fragment)
{
    for (auto it = fragment.edges.rbegin(); it != fragment.edges.rend(); ++it) {
        if (it->first < m_team.edges.size())
            m_team.edges.erase(m_team.edges.begin() + static_cast<std::ptrdiff_t>(it->first));
    }
    for (auto it = fragment.nodes.rbegin(); it != fragment.nodes.rend(); ++it) {
        if (it->first < m_team.nodes.size())
            m_team.nodes.erase(m_team.nodes.begin() + static_cast<std::ptrdiff_t>(it->first));
    }
    reindex();
    revalidate();
    for (const auto& [index, n] : fragment.nodes)
        emit nodeRemoved(n.id);
    emit edgesChanged();
}

void TeamDocument::applyPositions(const std::vector<std::pair<NodeId, std::optional<Position>>>& positions)
{
    std::vector<NodeId> moved;
    moved.reserve(positions.size());
    for (const auto& [id, pos] : positions) {
        const auto it = m_index.find(id);
        if (it == m_index.end())
            continue;
        m_team.nodes[it->second].pos = pos;
        moved.push_back(id);
    }
    emit nodesMoved(moved);
}

void TeamDocument::applyConfig(const NodeId& id, const NodeConfig& config)
{
    const auto it = m_index.find(id);
    if (it == m_index.end())
        return;
    m_team.nodes[it->second].config = config;
    revalidate();
    emit nodeChanged(id);
}

void TeamDocument::applyRename(const NodeId& from, const NodeId& to)
{
    const auto it = m_index.find(from);
    if (it == m_index.end())
        return;
    m_team.nodes[it->second].id = to;
    for (auto& e : m_team.edges) {
        if (e.from == from)
            e.from = to;
        if (e.to == from)
            e.to = to;
    }
    reindex();
    revalidate();
    emit nodeRenamed(from, to);
    emit edgesChanged();
}

void TeamDocument::applyEdge(size_t index, const Edge& edge)
{
    if (index >= m_team.edges.size())
        return;
    m_team.edges[index] = edge;
    revalidate();
    emit edgesChanged();
}

void TeamDocument::applySettings(const TeamSettings& settings)
{
    settings.applyTo(m_team);
    revalidate();
    emit settingsChanged();
}

} // namespace conclave::ui
