#pragma once

#include "conclave/model/Team.h"
#include "conclave/routing/RouterModel.h"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace conclave {

// The tasks a team's learned files were trained on: what no held-out figure
// may be measured on (a sweep's curve, a search's validation and test).
class TrainedTasks {
public:
    // The file a node was trained from: a learned router's router_file, a coordinator's or
    // cascade's scorer, found from `teamFolder`; unset for any other node.
    static std::optional<std::filesystem::path> fileOf(const Node& node, const std::filesystem::path& teamFolder);
    // The tasks that file was trained on (its `trained_on`); unset, with `why`, when it cannot be read.
    static std::optional<std::vector<RouterModel::TaskRef>> read(const std::filesystem::path& file, bool router,
                                                                std::string& why);
    // The ids of every task any of the team's files was trained on; a file that cannot be read adds a
    // note ("cannot read FILE (why): the tasks it was trained on are not left out") to `notes`.
    static std::set<std::string> of(const Team& team, const std::filesystem::path& teamFolder,
                                    std::vector<std::string>& notes);
};

} // namespace conclave
