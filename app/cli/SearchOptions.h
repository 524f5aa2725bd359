#pragma once

namespace CLI {
class App;
} // namespace CLI

namespace conclave::cli {

struct SearchArgs;
struct SearchesArgs;

// Adds `search` to `app`, its options filling `args` (which must outlive the parse).
CLI::App* addSearchCommand(CLI::App& app, SearchArgs& args);

// Adds `searches` with list, show, export and delete; the chosen one's name goes to args.action after the parse.
CLI::App* addSearchesCommand(CLI::App& app, SearchesArgs& args);

} // namespace conclave::cli
