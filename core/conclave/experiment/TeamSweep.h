#pragma once

#include "conclave/experiment/SweepSpec.h"
#include "conclave/model/Team.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace conclave {

// One point of a sweep's grid: a team that differs from its design in the swept fields.
struct TeamVariant {
    std::string name; // the design's name and SweepSpec::suffix(parameters)
    std::vector<SweepParameter> parameters;
    Team team;
};

// Applies a sweep to one team through its file format (the public contract):
// each variant is the team's JSON with the swept fields set, then loaded and
// validated as any team file is. A PATH is a node id and a field (the node
// is the longest prefix of PATH that is a node id, so ids with dots work),
// `backends.NAME.FIELD` or `defaults.FIELD`; fields may be nested
// (`e.params.temperature`), missing objects on the way are made. A variant
// that does not load or validate, or whose swept field the team would not
// read (an unknown key for that node kind), is refused with its name.
class TeamSweep {
public:
    // `label` is what messages call the team (its file as typed); `folder` is
    // where its relative files are (a models_file), for validation.
    TeamSweep(const Team& base, std::string label, std::filesystem::path folder);
    // The local models a variant may name (the catalog's); empty: model names are not checked.
    void setLocalModels(std::set<std::string> models) { m_localModels = std::move(models); }

    // The node a PATH names a field of (the longest prefix of PATH that is one of
    // the team's node ids, followed by a dot); unset for backends.…, defaults.… or no node.
    static std::optional<NodeId> nodeOf(const Team& team, const std::string& path);

    // Every variant, in grid order; unset with one error line on any problem.
    std::optional<std::vector<TeamVariant>> variants(const SweepSpec& sweep, const std::string& designName,
                                                     std::string& error) const;
    // One variant: axes[i]'s field set to parameters[i]'s value (a design search's candidate);
    // unset with one error line on any problem, as variants().
    std::optional<TeamVariant> variant(const std::vector<SweepAxis>& axes, std::vector<SweepParameter> parameters,
                                       const std::string& designName, std::string& error) const;
    // Why `axis` names no field of this team (no such node or backend, a node's id or kind); unset when it does.
    std::optional<std::string> problemWith(const SweepAxis& axis) const;

private:
    struct Target {
        std::string ownerPointer; // "/nodes/2", "/backends/local", "/defaults"
        std::vector<std::string> fields;
        std::string pointer; // ownerPointer and the fields
    };
    std::optional<Target> resolve(const SweepAxis& axis, std::string& error) const;
    std::optional<std::string> problemOf(const Team& team, const std::string& variant,
                                         const std::vector<Target>& targets) const;
    std::optional<TeamVariant> make(const std::vector<Target>& targets, std::vector<SweepParameter> parameters,
                                    const std::string& designName, std::string& error) const;

    nlohmann::json m_doc;
    std::string m_label;
    std::filesystem::path m_folder;
    std::set<std::string> m_localModels;
};

} // namespace conclave
