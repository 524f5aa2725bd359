#pragma once

#include "conclave/experiment/SweepSpec.h"
#include "conclave/experiment/TeamSweep.h"
#include "conclave/model/Team.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// A team a search starts from: a design as the user drew it. Its candidates
// are it with some of the space's fields changed.
struct SearchBase {
    std::string file; // as typed ("" for a team not from a file)
    std::string path; // absolute: where its relative files are found from
    Team team;
};

// What a design search may change, read from a space file:
//   { "format": 1,
//     "parameters": [ "gate.threshold=0.3:0.9:0.1", "math.model=local/small-7b,local/frontier-70b" ],
//     "bases": [ "other-topology.team.json" ] }
// Each parameter is one `--vary` flag (SweepSpec's grammar); it applies to
// every base that has the field's node or backend (defaults.… to all), and
// must apply to at least one. "bases" (optional, relative to the space file)
// offers whole alternative teams beside those the command names. A point of
// the space is a base and, for each parameter that applies to it, the index
// of one of its values, or kBaseValue: the base's own value (the base as
// drawn is the point with every parameter at kBaseValue).
class SearchSpace {
public:
    static constexpr int kBaseValue = -1;
    static constexpr int64_t kFormat = 1;

    struct Parameter {
        SweepAxis axis;
        std::vector<bool> appliesTo; // per base
        bool ordered = false;        // a range, or numbers only: a mutation moves to a neighbour
    };
    struct Point {
        size_t base = 0;
        std::vector<int> choice; // per parameter: an index into its values, or kBaseValue

        friend bool operator==(const Point&, const Point&) = default;
    };

    // The space of `text` (a space file's content; `folder` is where its bases are found from) over
    // `bases`; unset with "SPACE: /pointer: what is wrong" (SPACE the label) on any problem.
    // `localModels`: the model names a variant may use (the catalog's); empty: not checked.
    static std::optional<SearchSpace> fromJsonText(std::string_view text, const std::string& label,
                                                   const std::filesystem::path& folder, std::vector<SearchBase> bases,
                                                   std::string& error, const std::set<std::string>& localModels = {});
    static std::optional<SearchSpace> load(const std::filesystem::path& file, std::vector<SearchBase> bases,
                                           std::string& error, const std::set<std::string>& localModels = {});
    // A space of `flags` alone over `bases` (the studio's table, tests).
    static std::optional<SearchSpace> fromFlags(const std::vector<std::string>& flags, std::vector<SearchBase> bases,
                                                std::string& error, const std::set<std::string>& localModels = {});

    const std::vector<SearchBase>& bases() const { return m_bases; }
    const std::vector<Parameter>& parameters() const { return m_parameters; }
    // How many points there are: per base, the product of (values + its own value) over its parameters.
    double size() const;
    // Every point, base by base, in grid order (the first parameter slowest), its own values first;
    // empty when there are more than `limit`.
    std::vector<Point> grid(size_t limit) const;

    // "b0:2,-,1": the point's identity within this space.
    static std::string key(const Point& point);
    // The fields a point sets (not those at the base's value), in parameter order.
    std::vector<SweepParameter> parametersOf(const Point& point) const;
    // The point's team and name ("triage [gate.threshold=0.5]", the base's name alone for the base as drawn);
    // unset with the variant's problem when it does not load or validate.
    std::optional<TeamVariant> variant(const Point& point, std::string& error) const;
    // What a search stores and reproduces: the parameters (flags) and the bases' files.
    nlohmann::ordered_json toJson() const;

private:
    std::vector<SearchBase> m_bases;
    std::vector<Parameter> m_parameters;
    std::vector<TeamSweep> m_sweeps; // per base
};

} // namespace conclave
