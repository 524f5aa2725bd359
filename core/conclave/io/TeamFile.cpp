#include "conclave/io/TeamFile.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"

namespace conclave {

TeamLoadResult loadTeamFile(const std::filesystem::path& path)
{
    return parseTextFile<TeamLoadResult>(path, JsonLimits{}.maxBytes,
                                         [](std::string_view text) { return teamFromJsonText(text); });
}

std::optional<std::string> saveTeamFile(const Team& team, const std::filesystem::path& path)
{
    return writeFileAtomically(path, teamToJsonText(team));
}

} // namespace conclave
