// `conclave searches`: list, show, export and delete stored design searches.
#include "Commands.h"
#include "LocalTime.h"

#include "conclave/io/CsvField.h"
#include "conclave/io/FileIo.h"
#include "conclave/search/SearchReport.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SearchStore.h"

#include <nlohmann/json.hpp>

#include <ctime>
#include <sstream>

namespace conclave::cli {

namespace {

using Json = nlohmann::ordered_json;

Json recordJson(const SearchRecord& r)
{
    return Json{{"search_id", r.id},     {"name", r.name},         {"status", r.status},
                {"note", r.note},        {"trials", r.trials},     {"seconds", r.seconds},
                {"candidates", r.candidates}, {"front", r.front},  {"started_at", r.startedAtMs},
                {"ended_at", r.endedAtMs < 0 ? Json(nullptr) : Json(r.endedAtMs)}, {"command", r.command}};
}

int list(const CliContext& context, SearchStore& store, bool json)
{
    std::string error;
    const auto searches = store.list(error);
    if (!searches) {
        context.err << "searches: " << error << '\n';
        return kExitBadInput;
    }
    if (json) {
        auto out = Json::array();
        for (const auto& r : *searches)
            out.push_back(recordJson(r));
        context.out << out.dump(2) << '\n';
        return kExitOk;
    }
    if (searches->empty()) {
        context.out << "no searches\n";
        return kExitOk;
    }
    for (const auto& r : *searches)
        context.out << r.id << "  " << localTime(r.startedAtMs) << "  " << r.status << "  " << r.candidates
                    << " candidates, " << r.front << " on the front  " << r.trials << " trials  " << r.name << '\n';
    return kExitOk;
}

std::string candidatesText(const std::vector<SearchCandidateRow>& rows)
{
    std::ostringstream out;
    out << "candidates:\n";
    for (const auto& c : rows) {
        out << "  #" << c.candidate << "  " << c.status << "  rung " << c.rung << "  generation " << c.generation << "  "
            << c.name << '\n';
        if (!c.why.empty())
            out << "      " << c.why << '\n';
    }
    return out.str();
}

int show(const CliContext& context, SearchStore& store, const SearchesArgs& args)
{
    std::string error;
    const auto record = store.search(args.id, error);
    const auto candidates = record ? store.candidates(record->id, error) : std::nullopt;
    if (!candidates) {
        context.err << "searches: " << error << '\n';
        return kExitBadInput;
    }
    const auto report = record->reportJson.empty() ? Json() : Json::parse(record->reportJson, nullptr, false);
    if (args.json) {
        auto out = recordJson(*record);
        out["report"] = report.is_discarded() ? Json() : report;
        context.out << out.dump(2) << '\n';
        return kExitOk;
    }
    if (report.is_object()) {
        context.out << SearchReport::text(report);
    } else {
        context.out << "design search " << record->id << ": " << record->status
                    << (record->note.empty() ? "" : " (" + record->note + ")") << "; " << candidates->size()
                    << " candidates stored so far\nresume: " << record->command << '\n';
    }
    if (args.candidates)
        context.out << '\n' << candidatesText(*candidates);
    return kExitOk;
}

int exportSearch(const CliContext& context, SearchStore& store, const SearchesArgs& args)
{
    std::string error;
    const auto record = store.search(args.id, error);
    const auto candidates = record ? store.candidates(record->id, error) : std::nullopt;
    const auto trials = candidates ? store.trials(record->id, error) : std::nullopt;
    if (!trials) {
        context.err << "searches: " << error << '\n';
        return kExitBadInput;
    }
    std::string text;
    if (args.format == "csv") {
        text = "candidate,key,name,status,rung,generation,dropped_by,why,parameters\n";
        for (const auto& c : *candidates)
            text += std::to_string(c.candidate) + "," + csvField(c.key) + "," + csvField(c.name) + "," + c.status +
                    "," + std::to_string(c.rung) + "," + std::to_string(c.generation) + "," +
                    (c.droppedBy > 0 ? std::to_string(c.droppedBy) : std::string()) + "," + csvField(c.why) + "," +
                    csvField(c.parametersJson) + "\n";
    } else {
        auto out = recordJson(*record);
        out["spec"] = Json::parse(record->specJson, nullptr, false);
        out["report"] = record->reportJson.empty() ? Json() : Json::parse(record->reportJson, nullptr, false);
        auto list = Json::array();
        for (const auto& c : *candidates)
            list.push_back(Json{{"candidate", c.candidate},
                                {"key", c.key},
                                {"name", c.name},
                                {"status", c.status},
                                {"rung", c.rung},
                                {"generation", c.generation},
                                {"dropped_by", c.droppedBy > 0 ? Json(c.droppedBy) : Json(nullptr)},
                                {"why", c.why},
                                {"parameters", Json::parse(c.parametersJson, nullptr, false)},
                                {"team", Json::parse(c.teamJson, nullptr, false)}});
        out["candidates"] = std::move(list);
        auto rows = Json::array();
        for (const auto& t : *trials)
            rows.push_back(Json{{"candidate", t.candidate}, {"part", t.part},       {"task", t.task},
                                {"seed", t.seed},           {"scored", t.scored},   {"correct", t.correct},
                                {"failed", t.failed},       {"wall_us", t.wallUs},  {"cost_usd", t.costUsd},
                                {"tokens", t.tokens},       {"calls", t.calls}});
        out["trials"] = std::move(rows);
        text = out.dump(2) + "\n";
    }
    if (args.output.empty()) {
        context.out << text;
        return kExitOk;
    }
    if (auto e = writeFileAtomically(args.output, text)) {
        context.err << "searches: " << args.output << ": " << *e << '\n';
        return kExitBadInput;
    }
    context.out << "wrote " << args.output << '\n';
    return kExitOk;
}

} // namespace

int runSearches(const CliContext& context, const SearchesArgs& args)
{
    const auto path = RunStore::resolvePath(args.db);
    std::string error;
    auto store = SearchStore::open(path, args.action == "delete", error);
    if (!store) {
        context.err << "searches: " << error << '\n';
        return kExitBadInput;
    }
    if (args.action == "list")
        return list(context, *store, args.json);
    if (args.action == "show")
        return show(context, *store, args);
    if (args.action == "export")
        return exportSearch(context, *store, args);
    const auto record = store->search(args.id, error);
    if (!record) {
        context.err << "searches: " << error << '\n';
        return kExitBadInput;
    }
    const auto deleted = store->remove(record->id);
    if (!deleted.error.empty()) {
        context.err << "searches: " << deleted.error << '\n';
        return kExitBadInput;
    }
    context.out << "deleted search " << record->id << " (" << deleted.candidates << " candidates)\n";
    return kExitOk;
}

} // namespace conclave::cli
