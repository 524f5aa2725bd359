#pragma once

#include "CliContext.h"

#include <string>
#include <vector>

namespace conclave::cli {

// `conclave validate FILE...`: 0 when every file is valid, 2 otherwise.
int runValidate(const CliContext& context, const std::vector<std::string>& files);

// `conclave fmt FILE... [--check]`: rewrites files in canonical form; with
// check, changes nothing and returns 1 when a file is not canonical.
int runFormat(const CliContext& context, const std::vector<std::string>& files, bool check);

} // namespace conclave::cli
