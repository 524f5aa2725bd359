#include "conclave/io/ProfileFieldsRead.h"

#include "conclave/io/JsonText.h"
#include "conclave/io/TeamFields.h"

namespace conclave {

namespace {

using nlohmann::json;

// Every listed key present; any other key an error naming what the object holds.
bool closedRecord(JsonFieldReader& r, const json& value, std::initializer_list<std::string_view> keys,
                  std::string_view holds)
{
    bool complete = true;
    for (const auto key : keys) {
        if (!value.contains(key)) {
            r.fail(key, "missing; expected " + std::string(fieldRule(key).expected));
            complete = false;
        }
    }
    const auto rest = r.leftovers();
    if (rest.is_object() && !rest.empty())
        r.fail(rest.begin().key(), "unknown key; " + std::string(holds));
    return complete;
}

std::optional<ConfidenceDraw> readDraw(JsonFieldReader& parent, std::string_view key, std::vector<Problem>& problems)
{
    const auto* value = parent.object(key);
    if (!value) {
        if (!parent.take(key))
            parent.fail(key, "missing; expected an object with mean and sd");
        return std::nullopt;
    }
    JsonFieldReader r(*value, parent.pointerTo(key), problems);
    const size_t before = problems.size();
    const auto mean = r.number("mean", fieldRule("mean").expected);
    const auto sd = r.number("sd", fieldRule("sd").expected);
    std::vector<double> quantiles;
    if (const auto* list = r.take("quantiles")) {
        if (!list->is_array() || list->size() < 2) {
            r.fail("quantiles", "expected an array of at least two numbers from 0 to 1 (the confidence at shares 0 "
                                "to 1, evenly spaced), got " +
                                    (list->is_array() ? "an array of " + std::to_string(list->size())
                                                      : describeJsonValue(*list)));
        } else {
            for (size_t i = 0; i < list->size(); ++i) {
                const auto& q = (*list)[i];
                if (!q.is_number())
                    r.failAt(childPointer(r.pointerTo("quantiles"), i),
                             "expected " + std::string(fieldRule("quantiles").expected) + ", got " +
                                 describeJsonValue(q));
                else
                    quantiles.push_back(q.get<double>());
            }
        }
    }
    if (!closedRecord(r, *value, {"mean", "sd"}, "a confidence draw has only mean, sd and quantiles") || !mean ||
        !sd || problems.size() != before)
        return std::nullopt;
    return ConfidenceDraw{*mean, *sd, std::move(quantiles)};
}

} // namespace

std::optional<ConfidenceProfile> readConfidence(JsonFieldReader& parent, std::vector<Problem>& problems)
{
    const auto* value = parent.object("confidence");
    if (!value)
        return std::nullopt;
    const size_t before = problems.size();
    JsonFieldReader r(*value, parent.pointerTo("confidence"), problems);
    const auto right = readDraw(r, "right", problems);
    const auto wrong = readDraw(r, "wrong", problems);
    const auto rest = r.leftovers();
    if (rest.is_object() && !rest.empty())
        r.fail(rest.begin().key(), "unknown key; confidence has only right and wrong");
    if (problems.size() != before || !right || !wrong)
        return std::nullopt;
    return ConfidenceProfile{*right, *wrong};
}

std::optional<SynthesisProfile> readSynthesis(JsonFieldReader& parent, std::vector<Problem>& problems)
{
    const auto* value = parent.object("synthesis");
    if (!value)
        return std::nullopt;
    const size_t before = problems.size();
    JsonFieldReader r(*value, parent.pointerTo("synthesis"), problems);
    SynthesisProfile out;
    if (const auto* table = r.take("p_right_given_right")) {
        const auto expected = fieldRule("p_right_given_right").expected;
        if (!table->is_array() || table->empty()) {
            r.fail("p_right_given_right",
                   "expected an array of at least one number from 0 to 1 (p0: the chance when no candidate is right), "
                   "got " + (table->is_array() ? std::string("an empty array") : describeJsonValue(*table)));
        } else {
            for (size_t k = 0; k < table->size(); ++k) {
                const auto& p = (*table)[k];
                if (!p.is_number())
                    r.failAt(childPointer(r.pointerTo("p_right_given_right"), k),
                             "expected " + std::string(expected) + ", got " + describeJsonValue(p));
                else
                    out.pRightGivenRight.push_back(p.get<double>());
            }
        }
    }
    const auto self = r.number("self_answer", fieldRule("self_answer").expected);
    if (!value->contains("p_right_given_right"))
        r.fail("p_right_given_right", "missing; expected an array of numbers from 0 to 1");
    closedRecord(r, *value, {"self_answer"}, "synthesis has only p_right_given_right and self_answer");
    if (problems.size() != before || !self)
        return std::nullopt;
    out.selfAnswer = *self;
    return out;
}

std::optional<std::vector<CalibrationSource>> readCalibratedFrom(JsonFieldReader& parent,
                                                                 std::vector<Problem>& problems)
{
    const auto* value = parent.take("calibrated_from");
    if (!value)
        return std::nullopt;
    if (!value->is_array()) {
        parent.expected("calibrated_from", "an array of {experiment, answers}", *value);
        return std::nullopt;
    }
    const size_t before = problems.size();
    std::vector<CalibrationSource> out;
    for (size_t i = 0; i < value->size(); ++i) {
        const auto& item = (*value)[i];
        const auto pointer = childPointer(parent.pointerTo("calibrated_from"), i);
        if (!item.is_object()) {
            parent.failAt(pointer, "expected an object with experiment and answers, got " + describeJsonValue(item));
            continue;
        }
        JsonFieldReader r(item, pointer, problems);
        auto experiment = r.string("experiment", true);
        const auto answers = r.integer("answers", fieldRule("answers").expected, true);
        const auto rest = r.leftovers();
        if (rest.is_object() && !rest.empty())
            r.fail(rest.begin().key(), "unknown key; a calibration source has only experiment and answers");
        if (experiment && answers)
            out.push_back(CalibrationSource{std::move(*experiment), *answers});
    }
    if (problems.size() != before)
        return std::nullopt;
    return out;
}

} // namespace conclave
