#include "editor/TeamClipboard.h"

#include "conclave/io/TeamJson.h"

#include <set>

namespace conclave::ui {

Team TeamClipboard::fragment(const Team& team, const std::vector<NodeId>& nodes)
{
    const std::set<NodeId> chosen(nodes.begin(), nodes.end());
    Team out;
    out.name = team.name;
    std::set<BackendName> backends;
    for (const auto& n : team.nodes) {
        if (!chosen.contains(n.id))
            continue;
        out.nodes.push_back(n);
        if (n.config.call.backend)
            backends.insert(*n.config.call.backend);
    }
    for (const auto& e : team.edges) {
        if (chosen.contains(e.from) && chosen.contains(e.to))
            out.edges.push_back(e);
    }
    for (const auto& name : backends) {
        const auto it = team.backends.find(name);
        if (it != team.backends.end())
            out.backends.insert(*it);
    }
    return out;
}

QString TeamClipboard::toText(const Team& fragment)
{
    return QString::fromStdString(teamToJsonText(fragment));
}

std::optional<Team> TeamClipboard::fromText(const QString& text, QString* error)
{
    auto result = teamFromJsonText(text.toStdString());
    if (!result.team && error) {
        for (const auto& p : result.problems) {
            if (p.isError()) {
                *error = QString::fromStdString(formatProblem(p, "clipboard"));
                break;
            }
        }
    }
    return std::move(result.team);
}

} // namespace conclave::ui
