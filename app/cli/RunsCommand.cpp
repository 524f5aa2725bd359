// `conclave runs ...`: the run store from the command line.
#include "ClockLine.h"
#include "Commands.h"

#include "conclave/analysis/RunAnalysis.h"
#include "conclave/export/RunExport.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/TeamJson.h"
#include "conclave/store/RunStore.h"
#include "conclave/util/MoneyText.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace conclave::cli {

namespace {

using J = nlohmann::ordered_json;

double ms(int64_t us)
{
    return std::round(double(us) / 10.0) / 100.0;
}

std::string msText(int64_t us)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(1) << double(us) / 1000.0;
    return out.str();
}

std::string costText(double usd)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(6) << usd;
    return out.str();
}

// 2026-01-31T12:00:00Z
std::string isoTime(int64_t unixMs)
{
    const std::time_t t = std::time_t(unixMs / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

std::string cut(const std::string& text, size_t width)
{
    return text.size() < width ? text : text.substr(0, width - 2) + "~";
}

J summaryJson(const RunSummary& r)
{
    J j;
    j["run_id"] = r.id.str();
    j["team"] = r.teamName;
    j["status"] = std::string(toString(r.status));
    j["started_at"] = isoTime(r.startedAtMs);
    j["started_at_ms"] = r.startedAtMs;
    j["input"] = r.input;
    j["seed"] = r.seed;
    j["wall_ms"] = ms(r.wallUs);
    j["critical_path_ms"] = ms(r.criticalPathUs);
    j["tokens"] = r.tokensIn + r.tokensOut;
    j["cost_usd"] = r.costUsd;
    j["calls"] = r.calls;
    j["answer"] = r.answer;
    j["clock"] = std::string(toString(r.clock));
    j["cpu_ms"] = ms(r.cpuUs);
    j["source"] = std::string(toString(r.source));
    j["team_hash"] = r.teamHash;
    if (!r.keyName.empty())
        j["key_name"] = r.keyName;
    return j;
}

int list(const CliContext& context, RunStore& store, const RunsArgs& args)
{
    std::string error;
    auto reader = store.reader(error);
    RunFilter filter;
    filter.team = args.team;
    filter.status = runStatusFromString(args.status);
    filter.limit = args.limit;
    filter.includeTrials = args.experiments;
    if (!args.source.empty()) {
        filter.source = runSourceFromString(args.source);
        if (!filter.source) {
            context.err << "runs list: --source: expected " << runSourceNames() << ", got \"" << args.source
                        << "\"\n";
            return kExitBadInput;
        }
    }
    std::optional<std::vector<RunSummary>> runs;
    if (reader)
        runs = reader->list(filter, error);
    if (!runs) {
        context.err << "conclave: " << error << '\n';
        return kExitFailed;
    }
    if (args.json) {
        J array = J::array();
        for (const auto& r : *runs)
            array.push_back(summaryJson(r));
        context.out << array.dump(2) << '\n';
        return kExitOk;
    }
    context.out << std::left << std::setw(14) << "run" << std::setw(22) << "started (UTC)" << std::setw(22) << "team"
                << std::setw(18) << "status" << std::right << std::setw(11) << "wall ms" << std::setw(9) << "tokens"
                << std::setw(11) << "cost $"
                << "  answer\n";
    for (const auto& r : *runs) {
        context.out << std::left << std::setw(14) << r.id.str() << std::setw(22) << isoTime(r.startedAtMs)
                    << std::setw(22) << cut(r.teamName, 21) << std::setw(18) << toString(r.status) << std::right
                    << std::setw(11) << msText(r.wallUs) << std::setw(9) << (r.tokensIn + r.tokensOut) << std::setw(11)
                    << costText(r.costUsd) << "  " << cut(r.answer, 30) << '\n';
    }
    return kExitOk;
}

std::optional<StoredRun> loadRun(const CliContext& context, RunStore& store, const std::string& idOrPrefix,
                                 bool withText)
{
    std::string error;
    auto reader = store.reader(error);
    std::optional<RunId> id;
    if (reader)
        id = reader->resolve(idOrPrefix, error);
    std::optional<StoredRun> run;
    if (id)
        run = reader->load(*id, withText, error);
    if (!run)
        context.err << "conclave: " << error << " in " << store.path().string() << '\n';
    return run;
}

J analysisJson(const StoredRun& run, const RunAnalysis& a)
{
    J j = summaryJson(run.summary);
    J agents = J::array();
    for (const auto& s : a.agents) {
        J o;
        o["node"] = s.node.str();
        o["kind"] = s.kind;
        o["status"] = std::string(toString(s.status));
        o["calls"] = s.calls;
        o["wall_ms"] = ms(s.wallUs);
        o["busy_ms"] = ms(s.busyUs);
        o["ttft_ms"] = s.ttftUs < 0 ? J(nullptr) : J(ms(s.ttftUs));
        o["tokens_in"] = s.tokensIn;
        o["tokens_out"] = s.tokensOut;
        o["cost_usd"] = s.costUsd;
        agents.push_back(o);
    }
    j["agents"] = agents;
    J path = J::array();
    for (const auto& n : a.criticalPath)
        path.push_back(n.str());
    j["critical_path"] = path;
    j["parallelism"] = std::round(a.parallelism * 1000.0) / 1000.0;
    J serial = J::array();
    for (const auto& s : a.serialised) {
        J nodes = J::array();
        for (const auto& n : s.nodes)
            nodes.push_back(n.str());
        serial.push_back({{"nodes", nodes}, {"why", s.why}});
    }
    j["serialised_branches"] = serial;
    return j;
}

int show(const CliContext& context, RunStore& store, const RunsArgs& args)
{
    const auto run = loadRun(context, store, args.ids.front(), false);
    if (!run)
        return kExitBadInput;
    const auto a = RunAnalysis::of(*run);
    if (args.json) {
        context.out << analysisJson(*run, a).dump(2) << '\n';
        return kExitOk;
    }
    const auto& r = run->summary;
    auto& out = context.out;
    out << "run " << r.id.str() << ": " << toString(r.status) << "  team " << r.teamName << ", started "
        << isoTime(r.startedAtMs) << ", seed " << r.seed << '\n';
    out << "input: " << r.input << '\n';
    if (!r.answer.empty())
        out << "answer: " << r.answer << '\n';
    out << "wall " << msText(r.wallUs) << " ms, critical path " << msText(r.criticalPathUs) << " ms, " << r.calls
        << " calls, " << (r.tokensIn + r.tokensOut) << " tokens, " << moneyText(r.costUsd) << '\n';
    out << clockLine(r.clock, r.cpuUs) << '\n';
    out << "parallelism " << std::fixed << std::setprecision(2) << a.parallelism
        << " (sum of agent busy time / wall time)\n\n";
    out.unsetf(std::ios::fixed);
    out << std::left << std::setw(20) << "agent" << std::setw(13) << "kind" << std::setw(18) << "status" << std::right
        << std::setw(6) << "calls" << std::setw(10) << "wall ms" << std::setw(10) << "busy ms" << std::setw(9)
        << "ttft ms" << std::setw(9) << "tokens" << std::setw(11) << "cost $" << '\n';
    for (const auto& s : a.agents) {
        out << std::left << std::setw(20) << cut(s.node.str(), 19) << std::setw(13) << s.kind << std::setw(18)
            << toString(s.status) << std::right << std::setw(6) << s.calls << std::setw(10) << msText(s.wallUs)
            << std::setw(10) << msText(s.busyUs) << std::setw(9) << (s.ttftUs < 0 ? "-" : msText(s.ttftUs))
            << std::setw(9) << (s.tokensIn + s.tokensOut) << std::setw(11) << costText(s.costUsd) << '\n';
    }
    out << "\ncritical path:";
    for (size_t i = 0; i < a.criticalPath.size(); ++i)
        out << (i ? " -> " : " ") << a.criticalPath[i].str();
    out << (a.criticalPath.empty() ? " (none recorded)\n" : "\n");
    out << "could have run in parallel, ran one after another:";
    if (a.serialised.empty())
        out << " none";
    for (size_t i = 0; i < a.serialised.size(); ++i) {
        out << (i ? ";" : "");
        for (size_t k = 0; k < a.serialised[i].nodes.size(); ++k)
            out << (k ? ", " : " ") << a.serialised[i].nodes[k].str();
        out << " (" << a.serialised[i].why << ")";
    }
    out << '\n';
    return kExitOk;
}

int exportRunTo(const CliContext& context, RunStore& store, const RunsArgs& args)
{
    const auto format = exportFormatFromString(args.format);
    const auto run = loadRun(context, store, args.ids.front(), format == ExportFormat::Json);
    if (!run || !format)
        return kExitBadInput;
    const auto text = exportRun(*run, *format);
    if (args.outFile.empty() || args.outFile == "-") {
        context.out << text;
        return kExitOk;
    }
    if (auto error = writeFileAtomically(args.outFile, text)) {
        context.err << args.outFile << ": " << *error << '\n';
        return kExitFailed;
    }
    return kExitOk;
}

int rerun(const CliContext& context, RunStore& store, const RunsArgs& args)
{
    const auto run = loadRun(context, store, args.ids.front(), false);
    if (!run)
        return kExitBadInput;
    auto loaded = teamFromJsonText(run->teamJson);
    if (!loaded.team) {
        context.err << "conclave: run " << run->summary.id.str() << ": its stored team cannot be read\n";
        return kExitBadInput;
    }
    auto resources = context.engineResources();
    if (!resources)
        return kExitBadInput;
    RunRequest request{*loaded.team,
                       run->summary.input,
                       run->summary.seed,
                       args.json,
                       nullptr,
                       store.path().string(),
                       "run " + run->summary.id.str(),
                       run->summary.clock == ClockKind::Virtual ? ClockRequest::Virtual : ClockRequest::Real,
                       std::filesystem::path(), // a stored team has no folder: models_file is from here
                       RunSource::Rerun};
    return executeRun(context, std::move(*resources), request);
}

int remove(const CliContext& context, RunStore& store, const RunsArgs& args)
{
    std::string error;
    auto reader = store.reader(error);
    if (!reader) {
        context.err << "conclave: " << error << '\n';
        return kExitFailed;
    }
    std::vector<RunId> ids;
    for (const auto& given : args.ids) {
        auto id = reader->resolve(given, error);
        if (!id) {
            context.err << "conclave: " << error << " in " << store.path().string() << "; nothing deleted\n";
            return kExitBadInput;
        }
        ids.push_back(*id);
    }
    const auto deleted = store.remove(ids);
    if (!deleted.error.empty()) {
        context.err << "conclave: " << deleted.error << '\n';
        return kExitFailed;
    }
    context.out << "deleted " << deleted.count << (deleted.count == 1 ? " run\n" : " runs\n");
    return kExitOk;
}

int prune(const CliContext& context, RunStore& store, const RunsArgs& args)
{
    const auto deleted = store.prune(args.keep);
    if (!deleted.error.empty()) {
        context.err << "conclave: " << deleted.error << '\n';
        return kExitFailed;
    }
    context.out << "deleted " << deleted.count << (deleted.count == 1 ? " run" : " runs") << ", kept the " << args.keep
                << " most recent\n";
    return kExitOk;
}

int merge(const CliContext& context, RunStore& store, const RunsArgs& args)
{
    int runs = 0;
    for (const auto& other : args.ids) {
        const auto merged = store.mergeRunsFrom(other);
        if (!merged.error.empty()) {
            context.err << "runs merge: " << merged.error << '\n';
            return kExitBadInput;
        }
        runs += merged.runs;
        context.out << other << ": " << merged.runs << (merged.runs == 1 ? " run" : " runs");
        if (merged.replacedRuns > 0)
            context.out << " (" << merged.replacedRuns << " replacing half-written copies)";
        context.out << '\n';
    }
    context.out << "merged " << runs << (runs == 1 ? " run" : " runs") << " into " << store.path().string() << '\n';
    return kExitOk;
}

} // namespace

int runRuns(const CliContext& context, const RunsArgs& args)
{
    // list, show and export only read: they create no store and leave running rows alone.
    const bool reads = args.action == "list" || args.action == "show" || args.action == "export";
    auto opened = context.openStore(args.db, reads ? RunStore::Access::Read : RunStore::Access::Write, "conclave");
    if (!opened)
        return kExitBadInput;
    if (opened->recoveredRuns() > 0)
        context.err << "conclave: marked " << opened->recoveredRuns()
                    << " run(s) interrupted (their process had died)\n";
    auto& store = *opened;
    if (args.action == "list")
        return list(context, store, args);
    if (args.action == "show")
        return show(context, store, args);
    if (args.action == "export")
        return exportRunTo(context, store, args);
    if (args.action == "rerun")
        return rerun(context, store, args);
    if (args.action == "delete")
        return remove(context, store, args);
    if (args.action == "prune")
        return prune(context, store, args);
    if (args.action == "merge")
        return merge(context, store, args);
    return kExitBadInput;
}

} // namespace conclave::cli
