#pragma once

#include "conclave/engine/Run.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/session/EngineResources.h"
#include "conclave/session/PreparedTeam.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace conclave {

class HttpHub;
class RunClock;

// Makes a run's backends from its team's backend blocks. The concrete kinds
// (the local-moe simulator, OpenAI-compatible endpoints, recorded calls) are
// known here and in no folder below: the engine sees only ModelBackend.
class BackendFactory {
public:
    // Local and recorded backends keep time on `clock`, the run's.
    BackendFactory(const EngineResources& resources, HttpHub& http, std::shared_ptr<RunClock> clock);

    struct Made {
        std::map<BackendName, std::shared_ptr<ModelBackend>> backends;
        // The mixture-of-experts gate (ProfileGate): a model's skills from the
        // first openai backend whose models_file names it, else from the first
        // local backend's profiles; unset when the team has neither.
        GateScorer gate;
        uint64_t seed = 0; // the run's seed: `seed`, else the default backend's own
        std::string error; // why a backend cannot be made (a missing API key); nothing else is set then
    };
    // What each local backend of a team (and each recorded one that simulates
    // what was not recorded) sets over the catalog: its models_file (found
    // from `teamFolder`, see ModelsFile::resolve) under its inline `models`,
    // field by field. Empty, with `error` set, when a models file cannot be read.
    static std::map<BackendName, ModelsFile::Profiles>
    profileOverrides(const Team& team, const std::filesystem::path& teamFolder, std::string& error);
    // The local backends' profiles of a team, resolved once for all its runs:
    // the catalog's, under the block's models_file (found from `teamFolder`,
    // see ModelsFile::resolve), under its inline `models`, field by field.
    // Empty, with `error` set, when a models file cannot be read.
    static std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>>
    resolveProfiles(const EngineResources& resources, const Team& team, const std::filesystem::path& teamFolder,
                    std::string& error);

    // What the gate knows of the models of a team's openai backends, per backend
    // with a models_file (found from `teamFolder`, see ModelsFile::resolve): each
    // model the file names, resolved as a local backend's would be (the catalog's
    // profile of that name, if any, under the file's); the catalog's other models
    // are not among them. Empty, with `error` set, when a models file cannot be read.
    static std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>>
    resolveGateProfiles(const EngineResources& resources, const Team& team, const std::filesystem::path& teamFolder,
                        std::string& error);

    // `seed`, when given, replaces every local backend's own; `tasks`, when
    // given, are the tasks local backends recognise instead of the resources'.
    Made make(const PreparedTeam& team, std::string_view input, std::optional<uint64_t> seed,
              std::shared_ptr<const TaskSet> tasks = nullptr) const;

private:
    const EngineResources& m_resources;
    HttpHub& m_http;
    std::shared_ptr<RunClock> m_clock;
};

} // namespace conclave
