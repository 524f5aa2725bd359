// conclave: the command-line face of conclave_core. Parsing only; the work is in the commands.
#include "Commands.h"

#include "conclave/Version.h"

#include <CLI/CLI.hpp>

#include <iostream>

int main(int argc, char** argv)
{
    using namespace conclave::cli;

    CLI::App app{"Conclave: design, run and measure teams of LLM agents.", "conclave"};
    app.set_version_flag("--version", std::string("conclave ") + conclave::kVersion);
    app.require_subcommand(1);

    std::vector<std::string> validateFiles;
    auto* validate = app.add_subcommand("validate", "Check team files; exit 0 when all are valid, 2 otherwise");
    validate->add_option("files", validateFiles, "Team files (*.team.json)")->required();

    std::vector<std::string> fmtFiles;
    bool check = false;
    auto* fmt = app.add_subcommand("fmt", "Rewrite team files in canonical form (stable order, 2-space indent)");
    fmt->add_option("files", fmtFiles, "Team files (*.team.json)")->required();
    fmt->add_flag("--check", check, "Change nothing; exit 1 when a file is not in canonical form");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitBadInput;
    }

    const CliContext context{std::cout, std::cerr, resourcesForThisProcess()};
    if (*validate)
        return runValidate(context, validateFiles);
    if (*fmt)
        return runFormat(context, fmtFiles, check);
    return kExitBadInput;
}
