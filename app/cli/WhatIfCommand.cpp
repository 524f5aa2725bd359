// `conclave whatif`: what a change would have saved, projected from a stored run's own calls.
// The rules are in core/conclave/whatif/.
#include "Commands.h"

#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/whatif/DesignWhatIf.h"
#include "conclave/whatif/WhatIf.h"

#include <algorithm>

namespace conclave::cli {

int runWhatIf(const CliContext& context, const WhatIfArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "whatif: " << message << '\n';
        return kExitBadInput;
    };
    WhatIfChanges changes;
    for (const auto& assignment : args.speeds) {
        std::string error;
        if (!changes.speeds.add(assignment, error))
            return fail("--speed " + error);
    }
    for (const auto& assignment : args.backends) {
        std::string error;
        if (!changes.addBackend(assignment, error))
            return fail("--backend " + error);
    }
    for (const auto& assignment : args.models) {
        std::string error;
        if (!changes.addModel(assignment, error))
            return fail("--model " + error);
    }
    if (args.run.empty() && args.experiment.empty())
        return fail("give a run (RUN_ID), or --experiment ID --design NAME --profile");
    ModelsFile::Profiles simulatorModels;
    if (!args.modelsFile.empty()) {
        auto file = ModelsFile::load(args.modelsFile);
        if (!file.file) {
            const auto first = std::find_if(file.problems.begin(), file.problems.end(),
                                            [](const Problem& p) { return p.isError(); });
            return fail("--models-file " + (first == file.problems.end() ? args.modelsFile + ": cannot be read"
                                                                          : formatProblem(*first, args.modelsFile)));
        }
        simulatorModels = file.file->models();
    }
    auto resources = context.engineResources();
    if (!resources)
        return kExitBadInput;
    // The projection is kept in memory.
    const auto reader = context.openReader(args.db, "whatif");
    if (!reader)
        return kExitBadInput;
    std::string error;
    const auto db = RunStore::resolvePath(args.db);
    Engine engine(std::move(*resources));
    engine.setStore(db);
    if (!args.experiment.empty()) {
        const auto design = DesignWhatIf::load(engine, *reader, args.experiment, args.design, error,
                                               std::move(simulatorModels));
        if (!design)
            return fail(error);
        const auto profile = design->profile(error);
        if (!profile)
            return fail(error);
        context.out << (args.json ? profile->json().dump(2) + "\n" : profile->text());
        return kExitOk;
    }
    const auto whatIf = WhatIf::load(engine, *reader, args.run, error, std::move(simulatorModels));
    if (!whatIf)
        return fail(error);
    if (args.profile) {
        const auto profile = whatIf->profile(error);
        if (!profile)
            return fail(error);
        context.out << (args.json ? profile->json().dump(2) + "\n" : profile->text());
        return kExitOk;
    }
    const auto report = whatIf->project(changes, error);
    if (!report)
        return fail(error);
    context.out << (args.json ? report->json().dump(2) + "\n" : report->text());
    return kExitOk;
}

} // namespace conclave::cli
