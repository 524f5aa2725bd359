// `conclave experiments rerun ID --trial DESIGN/TASK/SEED`.
#include "Commands.h"

#include "conclave/experiment/TrialRebuild.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace conclave::cli {

int runExperimentRerun(const CliContext& context, const ExperimentsArgs& args)
{
    auto resources = context.engineResources();
    if (!resources || !context.resources)
        return kExitBadInput;
    auto opened = RunStore::open(RunStore::resolvePath(args.db));
    if (!opened.store) {
        context.err << "experiments rerun: " << opened.error << '\n';
        return kExitBadInput;
    }
    std::string error;
    auto reader = opened.store->reader(error);
    const auto experiment = reader ? reader->experiment(args.ids.front(), error) : std::nullopt;
    if (!experiment) {
        context.err << "experiments rerun: " << error << '\n';
        return kExitBadInput;
    }
    reader.reset();
    Engine engine(std::move(*resources));
    engine.setStore(RunStore::resolvePath(args.db));
    const auto rebuilt = TrialRebuild::run(engine, *opened.store, *experiment, args.trial, *context.resources);
    if (!rebuilt.error.empty()) {
        context.err << "experiments rerun: " << rebuilt.error << '\n';
        return kExitBadInput;
    }
    const auto& t = rebuilt.rebuilt;
    const std::string verdict = rebuilt.judged ? "judged (the judge is not rerun)"
                                : t.correct    ? (*t.correct ? "correct" : "wrong")
                                               : "unscored";
    if (args.json) {
        nlohmann::ordered_json j;
        j["experiment_id"] = experiment->id;
        j["trial"] = args.trial;
        j["run_id"] = rebuilt.runId;
        j["stored_run_id"] = rebuilt.stored.runId.str().empty() ? nlohmann::ordered_json()
                                                                 : nlohmann::ordered_json(rebuilt.stored.runId.str());
        j["answer"] = t.answer;
        j["score"] = verdict;
        j["wall_us"] = t.wallUs;
        j["cost_usd"] = t.costUsd;
        j["tokens"] = t.tokens;
        j["calls"] = t.calls;
        j["reproduces"] = rebuilt.differences.empty();
        j["differences"] = rebuilt.differences;
        context.out << j.dump(2) << '\n';
    } else {
        char wall[32];
        std::snprintf(wall, sizeof wall, "%.1f ms", double(t.wallUs) / 1000.0);
        context.out << "rebuilt trial " << args.trial << " of " << experiment->id << " on the simulated clock as run "
                    << rebuilt.runId << ": answer \"" << t.answer << "\", " << verdict << ", wall " << wall << ", "
                    << t.tokens << " tokens, " << t.calls << " calls\n";
        if (rebuilt.differences.empty()) {
            context.out << "it reproduces the stored trial exactly\n";
        } else {
            context.out << "it differs from the stored trial:\n";
            for (const auto& d : rebuilt.differences)
                context.out << "  " << d << '\n';
        }
    }
    return rebuilt.differences.empty() ? kExitOk : kExitFailed;
}

} // namespace conclave::cli
