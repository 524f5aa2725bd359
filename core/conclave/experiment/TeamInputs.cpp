#include "conclave/experiment/TeamInputs.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/ModelsFile.h"

namespace conclave {

namespace {
constexpr size_t kMaxInputBytes = size_t(64) << 20;
}

std::vector<TeamInput> inputsRead(const Team& team, const std::filesystem::path& teamFolder)
{
    std::vector<TeamInput> inputs;
    for (const auto& [backend, block] : team.backends) {
        // What a recorded backend replays: the experiments it names, in the
        // store as written, but for the designs it leaves out (its trials are
        // read when the team is prepared).
        if (block.kind == BackendKind::Recorded) {
            std::string replays = "db " + block.db.value_or("(the command's store)");
            for (const auto& id : block.experiments.value_or(std::vector<std::string>{}))
                replays += "\nexperiment " + id;
            for (const auto& design : block.excludeDesigns.value_or(std::vector<std::string>{}))
                replays += "\nwithout design " + design;
            inputs.push_back({"recorded " + backend.str(), block.db.value_or(""), std::move(replays)});
        }
        if (!block.modelsFile)
            continue;
        const auto path = ModelsFile::resolve(*block.modelsFile, teamFolder);
        const auto read = readFileText(path, kMaxInputBytes);
        // An unreadable file is marked, not described: its error names the path.
        inputs.push_back({"models_file " + backend.str(), path.string(), read.text ? *read.text : "(not readable)"});
    }
    // A coordinator's scorer decides when its meeting stops: its bytes are part of the design.
    for (const auto& node : team.nodes) {
        if (!node.config.scorer)
            continue;
        const auto path = ModelsFile::resolve(*node.config.scorer, teamFolder);
        const auto read = readFileText(path, kMaxInputBytes);
        inputs.push_back({"scorer " + node.id.str(), path.string(), read.text ? *read.text : "(not readable)"});
    }
    // A learned router's file decides its routes: the same.
    for (const auto& node : team.nodes) {
        if (node.kind != NodeKind::Router || !node.config.routerFile)
            continue;
        const auto path = ModelsFile::resolve(*node.config.routerFile, teamFolder);
        const auto read = readFileText(path, kMaxInputBytes);
        inputs.push_back({"router_file " + node.id.str(), path.string(), read.text ? *read.text : "(not readable)"});
    }
    return inputs;
}

std::string inputsHashText(const std::vector<TeamInput>& inputs)
{
    std::string text;
    for (const auto& input : inputs)
        text += "\n" + input.what + " " + std::to_string(input.bytes.size()) + ":" + input.bytes;
    return text;
}

} // namespace conclave
