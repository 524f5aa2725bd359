#include "whatif/WhatIfApply.h"

#include "document/TeamDocument.h"

#include <QStringList>
#include <QUndoStack>

namespace conclave::ui {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

// The model a node's calls go to in `team`: its own, else the team's default.
std::string modelOf(const Team& team, const Node& node)
{
    if (node.config.call.model)
        return *node.config.call.model;
    return team.defaults && team.defaults->model ? *team.defaults->model : std::string();
}

bool hasTeamFields(const WhatIfChanges& changes)
{
    return !changes.models.empty() || !changes.maxConcurrency.empty();
}

} // namespace

QStringList WhatIfApply::pending(const Team& open, const WhatIfChanges& changes)
{
    QStringList out;
    for (const auto& [id, model] : changes.models)
        if (const Node* node = open.findNode(id); node && modelOf(open, *node) != model)
            out << tr("%1: model %2").arg(q(id.str()), q(model));
    for (const auto& [name, limit] : changes.maxConcurrency)
        if (const auto it = open.backends.find(name); it != open.backends.end() && it->second.maxConcurrency != limit)
            out << tr("%1: max_concurrency %2").arg(q(name.str())).arg(limit);
    return out;
}

WhatIfApply::Verdict WhatIfApply::check(const TeamDocument* document, const Team& runTeam, const WhatIfChanges& changes)
{
    if (!hasTeamFields(changes))
        return {false, changes.speeds.empty() ? tr("Nothing to apply: pick a model or a number of calls at once")
                                              : tr(kSpeedUpOnly)};
    bool same = document && document->team().name == runTeam.name;
    for (const auto& [id, model] : changes.models)
        same = same && document->team().findNode(id);
    for (const auto& [name, limit] : changes.maxConcurrency)
        same = same && document->team().backends.contains(name);
    if (!same)
        return {false,
                tr("The run's team (%1) is not the team open in the editor: open it to apply").arg(q(runTeam.name))};
    const QStringList todo = pending(document->team(), changes);
    if (todo.isEmpty())
        return {false, tr("The open team already has these settings")};
    QString tip = tr("Set in the open team (one undo step): %1").arg(todo.join(QStringLiteral("; ")));
    if (!changes.speeds.empty())
        tip += tr(". The speed-ups stay out: %1").arg(tr(kSpeedUpOnly));
    return {true, tip};
}

bool WhatIfApply::apply(TeamDocument& document, const Team& runTeam, const WhatIfChanges& changes)
{
    if (!check(&document, runTeam, changes).enabled)
        return false;
    QUndoStack* undo = document.undoStack();
    undo->beginMacro(tr("Apply what-if (%1)").arg(pending(document.team(), changes).join(QStringLiteral("; "))));
    for (const auto& [id, model] : changes.models) {
        const Node* node = document.node(id);
        if (!node || modelOf(document.team(), *node) == model)
            continue;
        NodeConfig config = node->config;
        config.call.model = model;
        document.requestSetConfig(id, config);
    }
    TeamSettings settings = TeamSettings::of(document.team());
    for (const auto& [name, limit] : changes.maxConcurrency)
        settings.backends.at(name).maxConcurrency = limit;
    document.requestSetSettings(settings);
    undo->endMacro();
    return true;
}

} // namespace conclave::ui
