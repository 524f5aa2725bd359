#pragma once

#include <optional>
#include <string_view>

namespace conclave {

// What started a stored run (runs.source): `conclave run`, `conclave runs
// rerun`, an experiment's trial (`eval`, the studio's experiments), the
// studio's Run, or `conclave serve`. Rows stored before the column read `run`.
enum class RunSource { Run, Rerun, Eval, Studio, Serve };

std::string_view toString(RunSource source);
// "run", "rerun", "eval", "studio" or "serve"; unset for anything else.
std::optional<RunSource> runSourceFromString(std::string_view text);
// "run, rerun, eval, studio or serve": for messages.
std::string_view runSourceNames();

} // namespace conclave
