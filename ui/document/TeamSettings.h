#pragma once

#include "conclave/model/Team.h"

#include <map>
#include <optional>
#include <string>

namespace conclave::ui {

// The team-wide fields edited in the Team settings dialog: everything but the
// graph. One value, so one undo step replaces it whole.
struct TeamSettings {
    std::string name;
    std::optional<std::string> description;
    std::map<BackendName, Backend> backends;
    std::optional<Defaults> defaults;
    std::optional<Budget> budget;

    static TeamSettings of(const Team& team)
    {
        return {team.name, team.description, team.backends, team.defaults, team.budget};
    }
    void applyTo(Team& team) const
    {
        team.name = name;
        team.description = description;
        team.backends = backends;
        team.defaults = defaults;
        team.budget = budget;
    }

    friend bool operator==(const TeamSettings&, const TeamSettings&) = default;
};

} // namespace conclave::ui
