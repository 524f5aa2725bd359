#pragma once

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace conclave::cli {

struct ServeArgs;
struct WorldArgs;

// Adds `serve` to `app`, its options filling `args` (which must outlive the parse).
CLI::App* addServeCommand(CLI::App& app, ServeArgs& args);

// Adds `world` with its subcommand `serve`, and returns that subcommand.
CLI::App* addWorldServeCommand(CLI::App& app, WorldArgs& args);

} // namespace conclave::cli
