#include "conclave/bench/WorldSpec.h"

#include "conclave/io/JsonFieldReader.h"
#include "conclave/io/JsonText.h"

#include <cmath>
#include <functional>
#include <limits>

namespace conclave {

namespace {

// One rule of a number field: its check and the message when it fails.
struct NumberRule {
    std::string_view message;
    std::function<bool(double)> holds;
};

const NumberRule kPositive{"must be a positive number", [](double v) { return v > 0; }};
const NumberRule kAtLeastZero{"must be a number ≥ 0", [](double v) { return v >= 0; }};
const NumberRule kShare{"must be a number from 0 to 1", [](double v) { return v >= 0 && v <= 1; }};
const NumberRule kAuroc{"must be a number from 0.5 to below 1", [](double v) { return v >= 0.5 && v < 1; }};
const NumberRule kAboveOne{"must be a number above 1", [](double v) { return v > 1; }};
const NumberRule kAny{"must be a number", [](double) { return true; }};

// Reads one number field into target when it holds the rule; a missing
// required field, a value of another type and a value out of range all say
// the rule.
void readNumber(JsonFieldReader& reader, std::string_view key, const NumberRule& rule, double& target,
                bool required = false)
{
    const auto* value = reader.take(key);
    if (!value) {
        if (required)
            reader.fail(key, "missing; " + std::string(rule.message));
        return;
    }
    if (!value->is_number() || !std::isfinite(value->get<double>()) || !rule.holds(value->get<double>())) {
        reader.fail(key, std::string(rule.message));
        return;
    }
    target = value->get<double>();
}

Problem errorAt(std::string pointer, std::string message)
{
    Problem p;
    p.pointer = std::move(pointer);
    p.message = std::move(message);
    return p;
}

void rejectUnknown(const JsonFieldReader& reader, std::vector<Problem>& problems)
{
    const nlohmann::json unknown = reader.leftovers();
    for (auto it = unknown.begin(); it != unknown.end(); ++it)
        problems.push_back(errorAt(reader.pointerTo(it.key()), "unknown field"));
}

std::optional<WorldModel> readModel(const nlohmann::json& value, const std::string& pointer,
                                    std::vector<Problem>& problems)
{
    const size_t before = problems.size();
    if (!value.is_object()) {
        problems.push_back(errorAt(pointer, "must be an object"));
        return std::nullopt;
    }
    JsonFieldReader reader(value, pointer, problems);
    WorldModel model;
    readNumber(reader, "slope", kPositive, model.slope, true);
    if (const auto* abilities = reader.take("abilities"); !abilities) {
        reader.fail("abilities", "missing; must be an object of numbers by domain");
    } else if (!abilities->is_object() || abilities->empty()) {
        reader.fail("abilities", "must be an object of numbers by domain, with at least one");
    } else {
        JsonFieldReader domains(*abilities, reader.pointerTo("abilities"), problems);
        for (const auto& [domain, ability] : abilities->items()) {
            double a = 0;
            readNumber(domains, domain, kAny, a, true);
            model.abilities[domain] = a;
        }
    }
    readNumber(reader, "ttft_ms", kPositive, model.ttftMs, true);
    readNumber(reader, "output_tokens", kPositive, model.outputTokens, true);
    readNumber(reader, "tokens_per_s", kPositive, model.tokensPerS, true);
    readNumber(reader, "latency_shape", kAboveOne, model.latencyShape);
    readNumber(reader, "load_slope", kAtLeastZero, model.loadSlope);
    if (const auto* price = reader.take("price_per_mtok")) {
        if (!price->is_object()) {
            reader.fail("price_per_mtok", "must be an object with input and output");
        } else {
            JsonFieldReader p(*price, reader.pointerTo("price_per_mtok"), problems);
            readNumber(p, "input", kAtLeastZero, model.pricePerMtok.input, true);
            readNumber(p, "output", kAtLeastZero, model.pricePerMtok.output, true);
            rejectUnknown(p, problems);
        }
    }
    rejectUnknown(reader, problems);
    if (problems.size() != before)
        return std::nullopt;
    return model;
}

} // namespace

double WorldModel::ability(std::string_view domain) const
{
    if (const auto it = abilities.find(domain); it != abilities.end())
        return it->second;
    double sum = 0;
    for (const auto& [name, a] : abilities)
        sum += a;
    return abilities.empty() ? 0.0 : sum / double(abilities.size());
}

WorldSpec::ParseResult WorldSpec::fromJsonText(std::string_view text)
{
    ParseResult result;
    auto parsed = parseJsonText(text);
    result.problems = std::move(parsed.problems);
    if (!parsed.value)
        return result;
    const auto& doc = *parsed.value;
    auto& problems = result.problems;
    if (!doc.is_object()) {
        problems.push_back(errorAt("", "expected an object"));
        return result;
    }
    JsonFieldReader reader(doc, "", problems);
    WorldSpec spec;
    if (const auto format = reader.integer("format", "a whole number", true)) {
        if (*format > kFormat)
            reader.fail("format", "format " + std::to_string(*format) + " is newer than this program knows (" +
                                      std::to_string(kFormat) + ")");
        else if (*format < 1)
            reader.fail("format", "must be 1");
    }
    if (auto name = reader.string("name", true)) {
        if (name->empty())
            reader.fail("name", "must not be empty");
        spec.name = std::move(*name);
    }
    if (const auto* seed = reader.take("seed")) {
        if (!seed->is_number_unsigned())
            reader.fail("seed", "must be a whole number ≥ 0");
        else
            spec.seed = seed->get<uint64_t>();
    }
    if (auto sets = reader.stringList("task_sets"))
        spec.taskSets = std::move(*sets);
    readNumber(reader, "readable_share", kShare, spec.readableShare);
    readNumber(reader, "difficulty_shift", kAny, spec.difficultyShift);
    readNumber(reader, "wrong_answer_alpha", kPositive, spec.wrongAnswerAlpha);
    if (const auto* confidence = reader.object("confidence")) {
        JsonFieldReader c(*confidence, reader.pointerTo("confidence"), problems);
        readNumber(c, "auroc", kAuroc, spec.confidenceAuroc);
        readNumber(c, "floor", kShare, spec.confidenceFloor);
        readNumber(c, "ceiling", kShare, spec.confidenceCeiling);
        if (spec.confidenceCeiling <= spec.confidenceFloor)
            c.fail("ceiling", "must be above floor");
        rejectUnknown(c, problems);
    }
    if (const auto* synthesis = reader.object("synthesis")) {
        JsonFieldReader s(*synthesis, reader.pointerTo("synthesis"), problems);
        readNumber(s, "self_answer", kShare, spec.synthesisSelfAnswer);
        readNumber(s, "recognition", kShare, spec.synthesisRecognition);
        rejectUnknown(s, problems);
    }
    readNumber(reader, "meeting_conformity", kShare, spec.meetingConformity);
    readNumber(reader, "route_accuracy", kShare, spec.routeAccuracy);
    readNumber(reader, "judge_accuracy", kShare, spec.judgeAccuracy);
    if (const auto* models = reader.take("models"); !models) {
        reader.fail("models", "missing; must name at least one model");
    } else if (!models->is_object() || models->empty()) {
        reader.fail("models", "must name at least one model");
    } else {
        for (const auto& [name, value] : models->items()) {
            if (auto model = readModel(value, childPointer("/models", name), problems))
                spec.models.emplace(name, std::move(*model));
        }
    }
    rejectUnknown(reader, problems);
    if (!hasErrors(problems))
        result.spec = std::move(spec);
    return result;
}

} // namespace conclave
