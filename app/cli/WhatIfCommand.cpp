// `conclave whatif`: what a change would have saved, projected from a stored run's own calls.
// The rules are in core/conclave/whatif/.
#include "Commands.h"

#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"
#include "conclave/whatif/WhatIf.h"

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
    const auto whatIf = WhatIf::load(engine, *reader, db, args.run, error);
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
