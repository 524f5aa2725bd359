#pragma once

namespace CLI {
class App;
} // namespace CLI

namespace conclave::cli {

struct BenchArgs;

// Adds `bench` to `app`, its options filling `args` (which must outlive the parse).
CLI::App* addBenchCommand(CLI::App& app, BenchArgs& args);

} // namespace conclave::cli
