#include "conclave/experiment/SweepDesigns.h"

#include "conclave/experiment/TeamSweep.h"

#include <filesystem>

namespace conclave {

std::optional<std::vector<ExperimentDesign>> SweepDesigns::make(const std::string& name, const std::string& file,
                                                                const Team& team, const SweepSpec& sweep,
                                                                std::string& error)
{
    const auto folder =
        file.empty() ? std::filesystem::path() : std::filesystem::absolute(std::filesystem::path(file)).parent_path();
    const TeamSweep sweeper(team, file.empty() ? "\"" + name + "\"" : file, folder);
    auto variants = sweeper.variants(sweep, name, error);
    if (!variants)
        return std::nullopt;
    std::vector<ExperimentDesign> designs;
    designs.reserve(variants->size());
    for (auto& variant : *variants) {
        auto design = makeDesign(std::move(variant.name), file, std::move(variant.team));
        design.sweep = std::move(variant.parameters);
        designs.push_back(std::move(design));
    }
    return designs;
}

std::vector<const ExperimentDesign*> SweepDesigns::swept(const StoredSpec& stored)
{
    std::vector<const ExperimentDesign*> out;
    for (const auto& design : stored.designs) {
        if (!design.sweep.empty())
            out.push_back(&design);
    }
    return out;
}

std::optional<std::vector<ExperimentDesign>> SweepDesigns::regenerate(const StoredSpec& stored, const Team& team,
                                                                      const std::string& where, std::string& error)
{
    const auto was = swept(stored);
    if (was.empty())
        return std::vector<ExperimentDesign>{};
    const auto& first = *was.front();
    std::string flags;
    for (const auto& flag : stored.vary)
        flags += " --vary '" + flag + "'";
    const auto suffix = SweepSpec::suffix(first.sweep);
    if (!first.name.ends_with(suffix)) {
        error = "design \"" + first.name + "\": its name does not end with its swept fields (" + suffix + ")";
        return std::nullopt;
    }
    const auto sweep = SweepSpec::parse(stored.vary, error);
    if (!sweep)
        return std::nullopt;
    const auto name = first.name.substr(0, first.name.size() - suffix.size());
    auto now = make(name, where, team, *sweep, error);
    if (!now)
        return std::nullopt;
    if (now->size() != was.size()) {
        error = first.file + " with" + flags + " regenerates " + std::to_string(now->size()) + " variants, " +
                std::to_string(was.size()) + " were stored; start a new experiment";
        return std::nullopt;
    }
    for (size_t i = 0; i < was.size(); ++i) {
        auto& design = (*now)[i];
        design.file = was[i]->file;
        if (design.name != was[i]->name || design.hash != was[i]->hash) {
            error = "design \"" + was[i]->name + "\": regenerated from " + first.file + " with" + flags +
                    (design.name != was[i]->name ? ", it is \"" + design.name + "\""
                                                 : ", it differs from the variant stored (content hash " +
                                                       was[i]->hash + ", now " + design.hash + ")") +
                    "; start a new experiment, or restore the file";
            return std::nullopt;
        }
    }
    return now;
}

} // namespace conclave
