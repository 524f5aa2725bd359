#include "conclave/routing/ScorerFile.h"

#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"
#include "conclave/routing/RoutingFileReader.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

constexpr size_t kMaxScorerBytes = 512u * 1024u * 1024u;

double rounded(double value)
{
    return std::round(value * 1e6) / 1e6;
}

nlohmann::ordered_json tasksJson(const std::vector<RouterModel::TaskRef>& tasks)
{
    auto out = nlohmann::ordered_json::array();
    for (const auto& task : tasks)
        out.push_back({{"set", task.set}, {"id", task.id}});
    return out;
}

nlohmann::ordered_json optionalJson(const std::optional<double>& value)
{
    return value ? nlohmann::ordered_json(rounded(*value)) : nlohmann::ordered_json(nullptr);
}

std::vector<std::string> answerFeatureNames()
{
    const auto& names = AnswerFeatures::names();
    return {names.begin(), names.end()};
}

void readFeatures(RoutingFileReader& read, const nlohmann::json& doc, ScorerModel& model)
{
    const auto* features = read.field(doc, "", "features");
    if (!features)
        return;
    if (!features->is_object()) {
        read.fail("/features", "expected {\"prompt\", \"answer\"}, got " + describeJsonValue(*features));
        return;
    }
    if (const auto* prompt = read.field(*features, "/features", "prompt")) {
        const auto buckets = read.number(*prompt, "/features/prompt", "buckets");
        if (buckets && *buckets >= 1 && *buckets <= 1048576 && *buckets == std::floor(*buckets))
            model.buckets = static_cast<uint32_t>(*buckets);
        else if (buckets)
            read.fail("/features/prompt/buckets", "expected a whole number from 1 to 1048576");
        if (auto domains = read.strings(*prompt, "/features/prompt", "domains"))
            model.domains = std::move(*domains);
    }
    if (auto answer = read.strings(*features, "/features", "answer"); answer && *answer != answerFeatureNames()) {
        read.fail("/features/answer", "expected the answer features " + nlohmann::json(answerFeatureNames()).dump() +
                                          " (this Conclave's), got " + nlohmann::json(*answer).dump() +
                                          ": re-train the scorer (conclave train-scorer)");
    }
}

void readModel(RoutingFileReader& read, const nlohmann::json& entry, const std::string& pointer, ScorerModel& model)
{
    if (!entry.is_object()) {
        read.fail(pointer, "expected a model object, got " + describeJsonValue(entry));
        return;
    }
    const auto* name = read.field(entry, pointer, "name");
    if (name && (!name->is_string() || name->get<std::string>().empty()))
        read.fail(childPointer(pointer, "name"), "expected a model name, got " + describeJsonValue(*name));
    else if (name && model.modelIndex(name->get<std::string>()))
        read.fail(childPointer(pointer, "name"), "model \"" + name->get<std::string>() + "\" is listed twice");
    else if (name)
        model.models.push_back(name->get<std::string>());
    model.answers.push_back(static_cast<int64_t>(read.number(entry, pointer, "answers").value_or(0)));
    model.baseRates.push_back(read.number(entry, pointer, "base_rate").value_or(0.5));
    RouterModel::Linear linear;
    linear.c = read.number(entry, pointer, "c").value_or(0);
    linear.bias = read.number(entry, pointer, "bias").value_or(0);
    if (const auto* weights = read.field(entry, pointer, "weights"))
        linear.weights =
            read.sparse(*weights, childPointer(pointer, "weights"), model.dimension()).value_or(SparseVector{});
    model.linear.push_back(std::move(linear));
}

void readHeldOut(RoutingFileReader& read, const nlohmann::json& doc, ScorerModel& model)
{
    const auto* heldout = read.field(doc, "", "heldout", false);
    if (!heldout || !heldout->is_object())
        return;
    model.heldoutTasks = read.tasks(*heldout, "/heldout");
    const auto per = heldout->find("models");
    if (per == heldout->end() || !per->is_object())
        return;
    for (const auto& item : per->items()) {
        const auto& name = item.key();
        const auto& entry = item.value(); // not a structured binding: clang 14 cannot capture one
        ScorerModel::HeldOut h;
        h.model = name;
        const auto value = [&](const char* key) -> std::optional<double> {
            const auto it = entry.find(key);
            return it != entry.end() && it->is_number() ? std::optional(it->get<double>()) : std::nullopt;
        };
        h.answers = static_cast<int64_t>(value("answers").value_or(0));
        h.logLoss = value("log_loss");
        h.auroc = value("auroc");
        h.confidenceAuroc = value("confidence_auroc");
        model.heldout.push_back(std::move(h));
    }
    std::stable_sort(model.heldout.begin(), model.heldout.end(), [&](const auto& a, const auto& b) {
        return model.modelIndex(a.model).value_or(SIZE_MAX) < model.modelIndex(b.model).value_or(SIZE_MAX);
    });
}

} // namespace

std::optional<size_t> ScorerModel::modelIndex(const std::string& name) const
{
    const auto it = std::find(models.begin(), models.end(), name);
    if (it == models.end())
        return std::nullopt;
    return static_cast<size_t>(it - models.begin());
}

std::string ScorerFile::toJsonText(const ScorerModel& model)
{
    nlohmann::ordered_json doc;
    doc["format"] = kFormat;
    doc["kind"] = "scorer";
    doc["features"] = {{"prompt", {{"buckets", model.buckets}, {"domains", model.domains}, {"char_grams", {3, 5}}}},
                       {"answer", answerFeatureNames()}};
    auto models = nlohmann::ordered_json::array();
    for (size_t m = 0; m < model.models.size(); ++m) {
        nlohmann::ordered_json entry;
        entry["name"] = model.models[m];
        entry["answers"] = m < model.answers.size() ? model.answers[m] : 0;
        entry["base_rate"] = m < model.baseRates.size() ? rounded(model.baseRates[m]) : 0.0;
        const auto linear = m < model.linear.size() ? model.linear[m] : RouterModel::Linear{};
        entry["c"] = linear.c;
        entry["bias"] = linear.bias;
        entry["weights"] = onelinePlaceholder(m);
        models.push_back(std::move(entry));
    }
    doc["models"] = std::move(models);
    doc["trained_on"] = {{"experiments", model.experiments},
                         {"tasks", tasksJson(model.tasks)},
                         {"holdout", model.holdout},
                         {"seed", model.seed}};
    nlohmann::ordered_json perModel = nlohmann::ordered_json::object();
    for (const auto& h : model.heldout) {
        perModel[h.model] = {{"answers", h.answers},
                             {"log_loss", optionalJson(h.logLoss)},
                             {"auroc", optionalJson(h.auroc)},
                             {"confidence_auroc", optionalJson(h.confidenceAuroc)}};
    }
    doc["heldout"] = {{"tasks", tasksJson(model.heldoutTasks)}, {"models", std::move(perModel)}};
    std::vector<nlohmann::ordered_json> arrays;
    for (size_t m = 0; m < model.models.size(); ++m) {
        auto weights = nlohmann::ordered_json::array();
        if (m < model.linear.size()) {
            for (const auto& [index, value] : model.linear[m].weights)
                weights.push_back({index, rounded(value)});
        }
        arrays.push_back(std::move(weights));
    }
    return onelineArrays(doc.dump(1) + "\n", arrays);
}

ScorerFile::LoadResult ScorerFile::load(const std::filesystem::path& path)
{
    return parseTextFile<LoadResult>(path, kMaxScorerBytes, [](std::string_view text) { return fromJsonText(text); });
}

ScorerFile::LoadResult ScorerFile::fromJsonText(std::string_view text)
{
    LoadResult result;
    JsonLimits limits;
    limits.maxBytes = kMaxScorerBytes;
    auto parsed = parseJsonText(text, limits);
    result.problems = std::move(parsed.problems);
    if (!parsed.value)
        return result;
    const auto& doc = *parsed.value;
    RoutingFileReader read(result.problems);
    if (!doc.is_object()) {
        read.fail("", "expected a scorer object (what conclave train-scorer writes), got " + describeJsonValue(doc));
        return result;
    }
    const auto format = read.number(doc, "", "format");
    if (format && (*format != std::floor(*format) || *format < 1 || *format > double(kFormat))) {
        read.fail("/format", "this Conclave reads scorer files of format 1 to " + std::to_string(kFormat) + ", got " +
                                 describeJsonValue(doc["format"]));
        return result;
    }
    if (const auto* kind = read.field(doc, "", "kind"); kind && *kind != "scorer") {
        read.fail("/kind",
                  "expected \"scorer\" (a file conclave train-scorer writes), got " + describeJsonValue(*kind));
        return result;
    }
    ScorerModel model;
    readFeatures(read, doc, model);
    const auto* models = read.field(doc, "", "models");
    if (models && !models->is_array())
        read.fail("/models", "expected an array of models, got " + describeJsonValue(*models));
    else if (models && models->empty())
        read.fail("/models", "expected at least one model, got none");
    if (hasErrors(result.problems))
        return result;
    for (size_t m = 0; m < models->size(); ++m)
        readModel(read, (*models)[m], childPointer("/models", m), model);
    if (const auto* trained = read.field(doc, "", "trained_on", false); trained && trained->is_object()) {
        if (auto experiments = read.strings(*trained, "/trained_on", "experiments"))
            model.experiments = std::move(*experiments);
        model.tasks = read.tasks(*trained, "/trained_on");
        model.holdout = read.number(*trained, "/trained_on", "holdout", false).value_or(0);
        model.seed = static_cast<uint64_t>(read.number(*trained, "/trained_on", "seed", false).value_or(0));
    }
    readHeldOut(read, doc, model);
    if (!hasErrors(result.problems))
        result.model = std::move(model);
    return result;
}

} // namespace conclave
