#include "conclave/io/TeamFile.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"

namespace conclave {

TeamLoadResult loadTeamFile(const std::filesystem::path& path)
{
    auto file = readFileText(path, JsonLimits{}.maxBytes);
    if (!file.text) {
        Problem p;
        p.message = file.error;
        return TeamLoadResult{std::nullopt, {p}};
    }
    return teamFromJsonText(*file.text);
}

std::optional<std::string> saveTeamFile(const Team& team, const std::filesystem::path& path)
{
    return writeFileAtomically(path, teamToJsonText(team));
}

} // namespace conclave
