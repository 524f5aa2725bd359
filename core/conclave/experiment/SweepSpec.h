#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// One value a sweep gives a field: as the team file holds it (a number, a
// boolean or a string) and as names and reports show it.
struct SweepValue {
    nlohmann::json value;
    std::string text;

    friend bool operator==(const SweepValue&, const SweepValue&) = default;
};

// One `--vary` flag: a field and the values it takes, in order.
struct SweepAxis {
    std::string flag; // as typed: "e.params.temperature=0.1:0.5:0.1"
    std::string path; // "e.params.temperature"
    std::vector<SweepValue> values;
};

// One field of one variant, as its design carries it (ExperimentDesign::sweep).
struct SweepParameter {
    std::string path;
    nlohmann::json value;
    std::string text;

    friend bool operator==(const SweepParameter&, const SweepParameter&) = default;
};

// The grammar of `eval --vary`, one flag per field: `PATH=v1,v2,…` or
// `PATH=lo:hi:step`. A list's values are typed: a number stays a number,
// `true`/`false` are booleans, anything else a string, shown as typed. A
// range (no comma, two colons) runs from lo by step up to hi, hi included
// when within step/1000 of a step; its values are rounded to step's decimals
// (lo may not have more). The grid is the cartesian product of the flags in
// their order, the first flag's values changing slowest. Where PATH points
// in a team is TeamSweep's business, not this grammar's.
class SweepSpec {
public:
    static constexpr size_t kConfirmAbove = 1000;  // more variants than this need --yes
    static constexpr size_t kMaxVariants = 100000; // refused even with --yes: one experiment holds every variant

    // The flags as typed; unset, with "--vary 'FLAG': what is wrong", on any error.
    static std::optional<SweepSpec> parse(const std::vector<std::string>& flags, std::string& error);
    static std::optional<SweepAxis> parseAxis(std::string_view flag, std::string& error);

    const std::vector<SweepAxis>& axes() const { return m_axes; }
    std::vector<std::string> flags() const;
    // The grid's size: the product of the axes' sizes (kMaxVariants + 1 when above).
    size_t variantCount() const;
    // "11 x 11 x 11": each axis's size, in flag order.
    std::string shape() const;
    // Every variant's parameters, in grid order (variantCount() at most kMaxVariants).
    std::vector<std::vector<SweepParameter>> grid() const;

    // " [PATH=value, PATH=value]": what a variant's name appends to its design's.
    static std::string suffix(const std::vector<SweepParameter>& parameters);

private:
    std::vector<SweepAxis> m_axes;
};

} // namespace conclave
