#include "conclave/experiment/SweepColumns.h"

#include <algorithm>

namespace conclave {

SweepColumns SweepColumns::of(const std::vector<ExperimentDesign>& designs)
{
    SweepColumns out;
    for (const auto& design : designs) {
        for (const auto& p : design.sweep) {
            if (std::find(out.paths.begin(), out.paths.end(), p.path) == out.paths.end())
                out.paths.push_back(p.path);
        }
    }
    if (out.paths.empty())
        return out;
    for (const auto& design : designs) {
        std::vector<std::string> cells;
        for (const auto& path : out.paths) {
            const auto* p = design.parameter(path);
            cells.push_back(p ? p->text : "-");
        }
        out.cells.push_back(std::move(cells));
    }
    return out;
}

std::vector<std::string> SweepColumns::row(size_t design) const
{
    return design < cells.size() ? cells[design] : std::vector<std::string>(paths.size(), "-");
}

nlohmann::ordered_json SweepColumns::parameters(const ExperimentDesign& design)
{
    auto out = nlohmann::ordered_json::object();
    for (const auto& p : design.sweep)
        out[p.path] = p.value;
    return out;
}

} // namespace conclave
