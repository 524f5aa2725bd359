// `conclave fidelity`: how far the calibrated simulator predicts measured designs on held-out tasks.
// The rules are in core/conclave/experiment/FidelityCheck.
#include "Commands.h"

#include "conclave/experiment/FidelityCheck.h"
#include "conclave/io/FileIo.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"
#include "conclave/util/NumberText.h"

#include <filesystem>
#include <unistd.h>

namespace conclave::cli {

int runFidelity(const CliContext& context, const FidelityArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "fidelity: " << message << '\n';
        return kExitBadInput;
    };
    if (!(args.holdout > 0 && args.holdout < 1))
        return fail("--holdout: expected a share between 0 and 1 (exclusive), got " + formatNumber(args.holdout));
    if (args.folds < 1 || args.folds > 10)
        return fail("--folds: expected 2 to 10 (1 for one split), got " + std::to_string(args.folds));
    if (!args.output.empty() && std::filesystem::path(args.output).extension() != ".md" &&
        std::filesystem::path(args.output).extension() != ".json")
        return fail("-o " + args.output + ": expected a .md or .json file");
    auto resources = context.engineResources();
    if (!resources || !context.resources)
        return kExitBadInput;
    // Its predictions are kept in memory.
    const auto reader = context.openReader(args.db, "fidelity");
    if (!reader)
        return kExitBadInput;
    std::string error;

    Engine engine(std::move(*resources));
    engine.setStore(RunStore::resolvePath(args.db)); // what the replays read
    FidelityCheck::Options options;
    options.holdout = args.holdout;
    options.folds = args.folds;
    options.seed = args.seed;
    options.resamples = args.calibrationUncertainty ? 200 : 0;
    options.simulatedSeeds = args.simulatedSeeds;
    options.replay = args.replay;
    if (::isatty(STDERR_FILENO) && !args.json)
        options.progress = [&](const std::string& what) { context.err << "fidelity: " << what << "…\n"; };
    const auto report =
        FidelityCheck::run(engine, *reader, *context.resources, args.experiments, options, error);
    if (!report)
        return fail(error);
    context.out << (args.json ? report->json().dump(2) + "\n" : report->table());
    if (!args.output.empty()) {
        const bool md = std::filesystem::path(args.output).extension() == ".md";
        if (const auto failed =
                writeFileAtomically(args.output, md ? report->markdown() : report->json().dump(2) + "\n"))
            return fail("-o " + args.output + ": " + *failed);
    }
    return kExitOk;
}

} // namespace conclave::cli
