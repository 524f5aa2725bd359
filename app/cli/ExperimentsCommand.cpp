// `conclave experiments`: list, show, export, delete and merge stored experiments.
#include "Commands.h"
#include "LocalTime.h"
#include "ExperimentOutput.h"

#include "conclave/experiment/ExperimentReport.h"
#include "conclave/io/FileIo.h"
#include "conclave/store/RunStore.h"

#include <nlohmann/json.hpp>

#include <ctime>

namespace conclave::cli {

namespace {

int list(const CliContext& context, RunStore& store, bool json)
{
    std::string error;
    auto reader = store.reader(error);
    auto experiments = reader ? reader->experiments(error) : std::nullopt;
    if (!experiments) {
        context.err << "experiments: " << error << '\n';
        return kExitBadInput;
    }
    if (json) {
        auto out = nlohmann::ordered_json::array();
        for (const auto& e : *experiments)
            out.push_back({{"experiment_id", e.id},
                           {"name", e.name},
                           {"status", std::string(toString(e.status))},
                           {"designs", e.designs},
                           {"trials", e.storedTrials},
                           {"planned_trials", e.plannedTrials},
                           {"taskset", e.taskset},
                           {"started_at", e.startedAtMs}});
        context.out << out.dump(2) << '\n';
        return kExitOk;
    }
    if (experiments->empty()) {
        context.out << "no experiments in " << store.path().string() << '\n';
        return kExitOk;
    }
    for (const auto& e : *experiments) {
        std::string designs;
        for (const auto& d : e.designs)
            designs += (designs.empty() ? "" : ", ") + d;
        context.out << e.id << "  " << localTime(e.startedAtMs) << "  " << toString(e.status) << "  " << e.storedTrials
                    << "/" << e.plannedTrials << " trials  " << e.taskset << "  " << e.name << "  [" << designs
                    << "]\n";
    }
    return kExitOk;
}

} // namespace

int runExperiments(const CliContext& context, const ExperimentsArgs& args)
{
    if (args.action == "rerun")
        return runExperimentRerun(context, args);
    if (args.action == "merge") {
        auto store = context.openStore(args.db, RunStore::Access::Write, "experiments merge");
        if (!store)
            return kExitBadInput;
        int trials = 0;
        for (const auto& shard : args.ids) {
            const auto merged = store->mergeFrom(shard);
            if (!merged.error.empty()) {
                context.err << "experiments merge: " << merged.error << '\n';
                return kExitBadInput;
            }
            trials += merged.trials;
            context.out << shard << ": " << merged.trials << " trials, " << merged.runs << " runs";
            if (merged.replacedRuns > 0)
                context.out << " (" << merged.replacedRuns << " replacing half-written copies)";
            context.out << '\n';
        }
        context.out << "merged " << trials << " trials into " << store->path().string() << '\n';
        return kExitOk;
    }

    // list, show and export only read: they create no store and leave running rows alone.
    const bool reads = args.action == "list" || args.action == "show" || args.action == "export";
    auto opened = context.openStore(args.db, reads ? RunStore::Access::Read : RunStore::Access::Write, "experiments");
    if (!opened)
        return kExitBadInput;
    auto& store = *opened;
    if (args.action == "list")
        return list(context, store, args.json);

    const std::string& id = args.ids.front();
    std::string error;
    auto reader = store.reader(error);
    auto report = reader ? ExperimentReport::load(*reader, id, error) : std::nullopt;
    if (!report) {
        context.err << "experiments " << args.action << ": " << error << '\n';
        return kExitBadInput;
    }
    if (args.action == "show")
        return printExperiment(context, store, report->record.id, args.json, "", {}, true);
    if (args.action == "export") {
        const auto text = report->text(args.format);
        if (!text) {
            context.err << "experiments export: --format must be json, csv or md\n";
            return kExitBadInput;
        }
        if (args.output.empty()) {
            context.out << *text;
            return kExitOk;
        }
        if (const auto failed = writeFileAtomically(args.output, *text)) {
            context.err << "experiments export: " << args.output << ": " << *failed << '\n';
            return kExitBadInput;
        }
        context.out << "wrote " << args.output << '\n';
        return kExitOk;
    }
    if (args.action == "delete") {
        const auto deleted = store.removeExperiment(report->record.id);
        if (!deleted.error.empty()) {
            context.err << "experiments delete: " << deleted.error << '\n';
            return kExitBadInput;
        }
        context.out << "deleted experiment " << report->record.id << " and its " << deleted.count << " runs\n";
        return kExitOk;
    }
    return kExitBadInput;
}

} // namespace conclave::cli
