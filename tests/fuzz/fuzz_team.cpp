// The team reader: any bytes give a team or errors, never a crash; a team that
// loads validates, and saves to text that loads as the same team.
#include "FuzzCheck.h"

#include "conclave/io/TeamJson.h"
#include "conclave/validate/Validator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace conclave;
    const auto loaded = teamFromJsonText(fuzz::text(data, size));
    if (!loaded.team) {
        fuzz::check(hasErrors(loaded.problems), "a team is refused only with an error");
        return 0;
    }
    fuzz::check(!hasErrors(loaded.problems), "a team comes back only without errors");
    validate(*loaded.team);
    const auto again = teamFromJsonText(teamToJsonText(*loaded.team));
    fuzz::check(again.team.has_value(), "a saved team loads again");
    fuzz::check(*again.team == *loaded.team, "load -> save -> load gives an equal team");
    return 0;
}
