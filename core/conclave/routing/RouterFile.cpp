#include "conclave/routing/RouterFile.h"

#include "conclave/routing/RoutingFileReader.h"

#include "conclave/io/CanonicalJson.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/JsonText.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace conclave {

namespace {

constexpr size_t kMaxRouterBytes = 512u * 1024u * 1024u;

double rounded(double value)
{
    return std::round(value * 1e6) / 1e6;
}

nlohmann::ordered_json sparseJson(const SparseVector& x)
{
    // Values kept to 6 decimals; one that rounds to 0 is left out (it was as good as 0).
    auto out = nlohmann::ordered_json::array();
    for (const auto& [index, value] : x) {
        if (rounded(value) != 0.0)
            out.push_back({index, rounded(value)});
    }
    return out;
}

nlohmann::ordered_json tasksJson(const std::vector<RouterModel::TaskRef>& tasks)
{
    auto out = nlohmann::ordered_json::array();
    for (const auto& task : tasks)
        out.push_back({{"set", task.set}, {"id", task.id}});
    return out;
}

} // namespace

std::string RouterFile::toJsonText(const RouterModel& model)
{
    nlohmann::ordered_json doc;
    std::vector<nlohmann::ordered_json> arrays; // written on one line each
    doc["format"] = kFormat;
    doc["method"] = std::string(toString(model.method));
    doc["features"] = {{"kind", "prompt"}, {"buckets", model.buckets}, {"domains", model.domains},
                       {"char_grams", {3, 5}}};
    auto models = nlohmann::ordered_json::array();
    for (size_t m = 0; m < model.models.size(); ++m) {
        nlohmann::ordered_json entry;
        entry["name"] = model.models[m];
        entry["answers"] = m < model.answers.size() ? model.answers[m] : 0;
        entry["base_rate"] = m < model.baseRates.size() ? rounded(model.baseRates[m]) : 0.0;
        if (model.method == RouterModel::Method::Logistic && m < model.linear.size()) {
            entry["c"] = model.linear[m].c;
            entry["bias"] = model.linear[m].bias;
            entry["weights"] = onelinePlaceholder(arrays.size());
            arrays.push_back(sparseJson(model.linear[m].weights));
        }
        models.push_back(std::move(entry));
    }
    doc["models"] = std::move(models);
    if (model.method == RouterModel::Method::Logistic) {
        nlohmann::ordered_json weights{{"common", model.commonWeights}};
        if (model.pooling)
            weights["cv_difference_error"] = {{"separate", rounded(model.pooling->separate)},
                                              {"common", rounded(model.pooling->common)}};
        doc["weights"] = std::move(weights);
    }
    if (model.method == RouterModel::Method::Knn) {
        doc["k"] = model.k;
        auto prompts = nlohmann::ordered_json::array();
        for (size_t p = 0; p < model.prompts.size(); ++p) {
            auto outcomes = nlohmann::ordered_json::array();
            for (const double outcome : model.outcomes[p])
                outcomes.push_back(outcome < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(rounded(outcome)));
            prompts.push_back({{"features", onelinePlaceholder(arrays.size())}, {"outcomes", std::move(outcomes)}});
            arrays.push_back(sparseJson(model.prompts[p]));
        }
        doc["prompts"] = std::move(prompts);
    }
    doc["trained_on"] = {{"experiments", model.experiments}, {"tasks", tasksJson(model.tasks)},
                         {"holdout", model.holdout}, {"seed", model.seed}};
    nlohmann::ordered_json heldout;
    heldout["tasks"] = tasksJson(model.heldoutTasks);
    nlohmann::ordered_json perModel = nlohmann::ordered_json::object();
    for (const auto& h : model.heldout) {
        nlohmann::ordered_json entry;
        entry["answers"] = h.answers;
        const auto optional = [](const std::optional<double>& v) {
            return v ? nlohmann::ordered_json(rounded(*v)) : nlohmann::ordered_json(nullptr);
        };
        entry["log_loss"] = optional(h.logLoss);
        entry["auroc"] = optional(h.auroc);
        entry["domain_auroc"] = optional(h.domainAuroc);
        perModel[h.model] = std::move(entry);
    }
    heldout["models"] = std::move(perModel);
    doc["heldout"] = std::move(heldout);
    return onelineArrays(doc.dump(1) + "\n", arrays);
}

RouterFile::LoadResult RouterFile::load(const std::filesystem::path& path)
{
    return parseTextFile<LoadResult>(path, kMaxRouterBytes, [](std::string_view text) { return fromJsonText(text); });
}

RouterFile::LoadResult RouterFile::fromJsonText(std::string_view text)
{
    LoadResult result;
    JsonLimits limits;
    limits.maxBytes = kMaxRouterBytes;
    auto parsed = parseJsonText(text, limits);
    result.problems = std::move(parsed.problems);
    if (!parsed.value)
        return result;
    const auto& doc = *parsed.value;
    RoutingFileReader read(result.problems);
    if (!doc.is_object()) {
        read.fail("", "expected a router object (what conclave train-router writes), got " + describeJsonValue(doc));
        return result;
    }
    RouterModel model;
    const auto format = read.number(doc, "", "format");
    if (format && (*format != std::floor(*format) || *format < 1 || *format > double(kFormat))) {
        read.fail("/format", "this Conclave reads router files of format 1 to " + std::to_string(kFormat) +
                                 ", got " + describeJsonValue(doc["format"]));
        return result;
    }
    if (const auto* method = read.field(doc, "", "method")) {
        if (*method == "logistic")
            model.method = RouterModel::Method::Logistic;
        else if (*method == "knn")
            model.method = RouterModel::Method::Knn;
        else
            read.fail("/method", "expected \"logistic\" or \"knn\", got " + describeJsonValue(*method));
    }
    if (const auto* features = read.field(doc, "", "features")) {
        const auto buckets = read.number(*features, "/features", "buckets");
        if (buckets && *buckets >= 1 && *buckets <= 1048576 && *buckets == std::floor(*buckets))
            model.buckets = static_cast<uint32_t>(*buckets);
        else if (buckets)
            read.fail("/features/buckets", "expected a whole number from 1 to 1048576");
        if (auto domains = read.strings(*features, "/features", "domains"))
            model.domains = std::move(*domains);
    }
    const uint32_t dimension = model.buckets + PromptFeatures::kCountFeatures + uint32_t(model.domains.size());
    const auto* models = read.field(doc, "", "models");
    if (models && !models->is_array())
        read.fail("/models", "expected an array of models, got " + describeJsonValue(*models));
    else if (models && models->empty())
        read.fail("/models", "expected at least one model, got none");
    if (hasErrors(result.problems))
        return result;
    for (size_t m = 0; m < models->size(); ++m) {
        const auto& entry = (*models)[m];
        const auto pointer = childPointer("/models", m);
        if (!entry.is_object()) {
            read.fail(pointer, "expected a model object, got " + describeJsonValue(entry));
            continue;
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
        if (model.method == RouterModel::Method::Logistic) {
            RouterModel::Linear linear;
            linear.c = read.number(entry, pointer, "c").value_or(0);
            linear.bias = read.number(entry, pointer, "bias").value_or(0);
            if (const auto* weights = read.field(entry, pointer, "weights"))
                linear.weights = read.sparse(*weights, childPointer(pointer, "weights"), dimension).value_or(SparseVector{});
            model.linear.push_back(std::move(linear));
        }
    }
    // "weights" (how a logistic router's weights were fitted) is informative and
    // optional: files written before it were fitted per model.
    if (model.method == RouterModel::Method::Logistic && doc.contains("weights")) {
        const auto& weights = doc["weights"];
        if (!weights.is_object() || !weights.contains("common") || !weights["common"].is_boolean()) {
            read.fail("/weights", "expected {\"common\": true or false, ...}, got " + describeJsonValue(weights));
        } else {
            model.commonWeights = weights["common"].get<bool>();
            if (weights.contains("cv_difference_error")) {
                const auto& error = weights["cv_difference_error"];
                const auto separate = read.number(error, "/weights/cv_difference_error", "separate");
                const auto common = read.number(error, "/weights/cv_difference_error", "common");
                if (separate && common)
                    model.pooling = RouterModel::Pooling{*separate, *common};
            }
        }
    }
    if (model.method == RouterModel::Method::Knn) {
        const auto k = read.number(doc, "", "k");
        if (k && (*k < 1 || *k != std::floor(*k)))
            read.fail("/k", "expected a whole number of at least 1");
        model.k = static_cast<int>(k.value_or(1));
        const auto* prompts = read.field(doc, "", "prompts");
        if (prompts && !prompts->is_array())
            read.fail("/prompts", "expected an array of prompts, got " + describeJsonValue(*prompts));
        for (size_t p = 0; prompts && prompts->is_array() && p < prompts->size() && !hasErrors(result.problems); ++p) {
            const auto& entry = (*prompts)[p];
            const auto pointer = childPointer("/prompts", p);
            const auto* features = entry.is_object() ? read.field(entry, pointer, "features") : nullptr;
            const auto* outcomes = entry.is_object() ? read.field(entry, pointer, "outcomes") : nullptr;
            if (!entry.is_object()) {
                read.fail(pointer, "expected a prompt object, got " + describeJsonValue(entry));
                break;
            }
            if (!features || !outcomes)
                break;
            auto x = read.sparse(*features, childPointer(pointer, "features"), dimension);
            std::vector<double> row;
            if (outcomes->is_array() && outcomes->size() == model.models.size()) {
                for (const auto& o : *outcomes)
                    row.push_back(o.is_number() ? std::clamp(o.get<double>(), 0.0, 1.0) : -1.0);
            } else {
                read.fail(childPointer(pointer, "outcomes"), "expected one share right (or null) per model, " +
                                                                 std::to_string(model.models.size()) + " in all");
            }
            if (x) {
                model.prompts.push_back(std::move(*x));
                model.outcomes.push_back(std::move(row));
            }
        }
    }
    if (const auto* trained = read.field(doc, "", "trained_on", false); trained && trained->is_object()) {
        if (auto experiments = read.strings(*trained, "/trained_on", "experiments"))
            model.experiments = std::move(*experiments);
        model.tasks = read.tasks(*trained, "/trained_on");
        model.holdout = read.number(*trained, "/trained_on", "holdout", false).value_or(0);
        model.seed = static_cast<uint64_t>(read.number(*trained, "/trained_on", "seed", false).value_or(0));
    }
    if (const auto* heldout = read.field(doc, "", "heldout", false); heldout && heldout->is_object()) {
        model.heldoutTasks = read.tasks(*heldout, "/heldout");
        const auto per = heldout->find("models");
        if (per != heldout->end() && per->is_object()) {
            for (const auto& item : per->items()) {
                const auto& name = item.key();
                const auto& entry = item.value(); // not a structured binding: clang 14 cannot capture one
                RouterModel::HeldOut h;
                h.model = name;
                const auto value = [&](const char* key) -> std::optional<double> {
                    const auto it = entry.find(key);
                    return it != entry.end() && it->is_number() ? std::optional(it->get<double>()) : std::nullopt;
                };
                h.answers = static_cast<int64_t>(value("answers").value_or(0));
                h.logLoss = value("log_loss");
                h.auroc = value("auroc");
                h.domainAuroc = value("domain_auroc");
                model.heldout.push_back(std::move(h));
            }
            // In the file's model order, as they were written.
            std::stable_sort(model.heldout.begin(), model.heldout.end(), [&](const auto& a, const auto& b) {
                return model.modelIndex(a.model).value_or(SIZE_MAX) < model.modelIndex(b.model).value_or(SIZE_MAX);
            });
        }
    }
    if (!hasErrors(result.problems))
        result.model = std::move(model);
    return result;
}

} // namespace conclave
