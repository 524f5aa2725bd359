#pragma once

#include "document/TeamFragment.h"
#include "document/TeamSettings.h"

#include "conclave/diagnostics/Problem.h"
#include "conclave/model/Team.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

class QUndoStack;

namespace conclave::ui {

// The team being edited: plain core data plus change notifications.
//
// Promises: views observe it and never hold team data of their own; every
// user edit is a request…() that either changes nothing and returns false, or
// pushes one undoable command on undoStack(); after each change the matching
// signal is emitted and problems() is current. It never knows about graphics
// items or widgets. The apply…() functions are for the undo commands only.
class TeamDocument : public QObject {
    Q_OBJECT

public:
    explicit TeamDocument(QObject* parent = nullptr);
    ~TeamDocument() override;

    const Team& team() const { return m_team; }
    const Node* node(const NodeId& id) const;
    const QString& filePath() const { return m_filePath; }
    // The folder of its file, where a relative models_file is found; empty when untitled.
    std::filesystem::path folder() const;
    QString displayName() const; // file name, or "Untitled"
    const std::vector<Problem>& problems() const { return m_problems; }
    std::vector<const Problem*> problemsOf(const NodeId& id) const;
    QUndoStack* undoStack() const { return m_undo; }
    bool isModified() const;

    // Local model names for validation and the model picker.
    void setLocalModels(std::set<std::string> models);
    const std::set<std::string>& localModels() const { return m_localModels; }

    // Files. load() returns the loader's messages, one per line, and leaves the
    // document untouched on failure; save() returns an error or empty.
    void newTeam();
    QString load(const QString& path);
    void setTeam(Team team, const QString& path); // as if loaded from `path`
    QString save(const QString& path);
    QString exportTo(const QString& path) const;

    // Edits.
    std::optional<NodeId> requestAddNode(NodeKind kind, Position pos);
    // Inserts the nodes and edges of `fragment` (a team, e.g. from the clipboard
    // or a template) with fresh ids where theirs are taken, moved by `offset`;
    // backends it names that the team lacks are added. Returns the new ids.
    std::vector<NodeId> requestInsert(const Team& fragment, Position offset, const QString& text);
    std::optional<std::string> connectionRefusal(const NodeId& from, const NodeId& to, EdgeRole role) const;
    bool requestConnect(const NodeId& from, const NodeId& to, EdgeRole role, QString* reason = nullptr);
    bool requestRemove(const std::vector<NodeId>& nodes, const std::vector<size_t>& edges);
    bool requestMove(const std::vector<std::pair<NodeId, Position>>& moves, const QString& text = {});
    // `mergeKey` >= 0 merges consecutive edits of one field into one undo step (typing).
    bool requestSetConfig(const NodeId& id, const NodeConfig& config, int mergeKey = -1);
    bool requestRename(const NodeId& from, const NodeId& to, QString* reason = nullptr);
    bool requestSetRouteLabel(size_t edge, const std::optional<std::string>& when);
    bool requestSetSettings(const TeamSettings& settings);
    bool requestAutoLayout();

    // For the undo commands.
    void applyInsert(const TeamFragment& fragment);
    void applyErase(const TeamFragment& fragment);
    void applyPositions(const std::vector<std::pair<NodeId, std::optional<Position>>>& positions);
    void applyConfig(const NodeId& id, const NodeConfig& config);
    void applyRename(const NodeId& from, const NodeId& to);
    void applyEdge(size_t index, const Edge& edge);
    void applySettings(const TeamSettings& settings);

signals:
    void teamReset();
    void nodeAdded(const conclave::NodeId& id);
    void nodeRemoved(const conclave::NodeId& id);
    void nodeChanged(const conclave::NodeId& id);
    void nodesMoved(const std::vector<conclave::NodeId>& ids);
    void nodeRenamed(const conclave::NodeId& from, const conclave::NodeId& to);
    void edgesChanged();
    void settingsChanged();
    void problemsChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);

private:
    void reindex();
    void revalidate();
    void resetTo(Team team, const QString& path, std::vector<Problem> loadProblems);

    Team m_team;
    std::unordered_map<NodeId, size_t> m_index;
    QString m_filePath;
    std::vector<Problem> m_loadProblems; // warnings from the loader, kept until the next save
    std::vector<Problem> m_problems;
    std::unordered_map<NodeId, std::vector<size_t>> m_problemsByNode;
    std::set<std::string> m_localModels;
    QUndoStack* m_undo;
};

} // namespace conclave::ui

Q_DECLARE_METATYPE(conclave::NodeId)
