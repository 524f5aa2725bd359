// FieldChecker's checks of backends: each kind's fields, model profiles
// (inline or in a models file), the experiments and designs a recorded
// backend replays.
#include "conclave/validate/FieldChecker.h"

#include "conclave/io/ModelsFile.h"
#include "conclave/util/AsciiText.h"

#include <algorithm>
#include <set>

namespace conclave::checks {

namespace {

// An HTTP header whose value is a credential.
bool isSecretHeader(std::string_view name)
{
    return isSecretKey(name) || toLowerAscii(name).find("token") != std::string::npos;
}

bool isEnvironmentVariableName(std::string_view name)
{
    const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    return !name.empty() && letter(name.front()) &&
           std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || digit(c); });
}

} // namespace

// False when the distribution is unusable, so that one cause gives one problem.
bool FieldChecker::checkDistribution(const std::string& pointer, const Distribution& d, bool tailIsSlower)
{
    if (d.median < 0 || d.p95 < 0) {
        m_sink.error(pointer, "expected non-negative median and p95");
        return false;
    }
    if (tailIsSlower && d.p95 < d.median)
        m_sink.error(childPointer(pointer, "p95"),
                     "p95 (" + formatNumber(d.p95) + ") must not be below the median (" + formatNumber(d.median) + ")");
    if (!tailIsSlower && d.p95 > d.median)
        m_sink.error(childPointer(pointer, "p95"), "p95 (" + formatNumber(d.p95) +
                                                       ") is the slow tail and must not exceed the median (" +
                                                       formatNumber(d.median) + ")");
    return true;
}

void FieldChecker::checkPrice(const std::string& pointer, const Price& price)
{
    if (price.input < 0 || price.output < 0)
        m_sink.error(pointer, "prices must not be negative");
}

void FieldChecker::checkProfile(const std::string& pointer, const ModelProfile& profile)
{
    if (profile.skills) {
        for (const auto& [domain, skill] : *profile.skills) {
            if (!fieldRule("skill").accepts(skill))
                m_sink.error(childPointer(childPointer(pointer, "skills"), domain),
                             "expected a number from 0 to 1, got " + formatNumber(skill));
        }
    }
    if (profile.ttftMs)
        checkDistribution(childPointer(pointer, "ttft_ms"), *profile.ttftMs, true);
    if (profile.tokensPerS && checkDistribution(childPointer(pointer, "tokens_per_s"), *profile.tokensPerS, false)) {
        if (profile.tokensPerS->p95 <= 0)
            m_sink.error(childPointer(childPointer(pointer, "tokens_per_s"), "p95"),
                         "expected a positive speed, got " + formatNumber(profile.tokensPerS->p95));
    }
    if (profile.outputTokens)
        checkDistribution(childPointer(pointer, "output_tokens"), *profile.outputTokens, true);
    if (profile.pricePerMtok)
        checkPrice(childPointer(pointer, "price_per_mtok"), *profile.pricePerMtok);
    range(pointer, "context_tokens", profile.contextTokens);
    range(pointer, "failure_rate", profile.failureRate);
    range(pointer, "error_agreement", profile.errorAgreement);
    range(pointer, "difficulty_weight", profile.difficultyWeight);
    if (profile.confidence) {
        const auto at = childPointer(pointer, "confidence");
        for (const auto& [side, draw] :
             {std::pair{"right", profile.confidence->right}, std::pair{"wrong", profile.confidence->wrong}}) {
            range(childPointer(at, side), "mean", std::optional(draw.mean));
            range(childPointer(at, side), "sd", std::optional(draw.sd));
            const auto list = childPointer(childPointer(at, side), "quantiles");
            for (size_t i = 0; i < draw.quantiles.size(); ++i) {
                range(list, std::to_string(i), std::optional(draw.quantiles[i]), fieldRule("quantiles"));
                if (i > 0 && draw.quantiles[i] < draw.quantiles[i - 1])
                    m_sink.error(childPointer(list, i), "expected at least the quantile before it (" +
                                                            formatNumber(draw.quantiles[i - 1]) + "), got " +
                                                            formatNumber(draw.quantiles[i]));
            }
        }
    }
    if (profile.synthesis) {
        const auto at = childPointer(pointer, "synthesis");
        const auto& table = profile.synthesis->pRightGivenRight;
        for (size_t k = 0; k < table.size(); ++k)
            range(childPointer(at, "p_right_given_right"), std::to_string(k), std::optional(table[k]),
                  fieldRule("p_right_given_right"));
        range(at, "self_answer", std::optional(profile.synthesis->selfAnswer));
    }
    range(pointer, "load_slope", profile.loadSlope);
    range(pointer, "retry_repeat", profile.retryRepeat);
    range(pointer, "conformity", profile.conformity);
    range(pointer, "repeat_agreement", profile.repeatAgreement);
    if (profile.fitted) {
        for (size_t i = 0; i < profile.fitted->size(); ++i) {
            const auto& field = (*profile.fitted)[i];
            if (!containsKey(teamObjectKeys(TeamObject::Profile), field) || field == "fitted" ||
                field == "calibrated_from")
                m_sink.error(childPointer(childPointer(pointer, "fitted"), i),
                             "expected the name of a profile field the simulator uses, got \"" + field + "\"");
        }
    }
    if (profile.calibratedFrom) {
        for (size_t i = 0; i < profile.calibratedFrom->size(); ++i) {
            const auto& source = (*profile.calibratedFrom)[i];
            const auto at = childPointer(childPointer(pointer, "calibrated_from"), i);
            if (source.experiment.empty())
                m_sink.error(childPointer(at, "experiment"), "expected an experiment id, got \"\"");
            range(at, "answers", std::optional(source.answers));
        }
    }
    if (profile.skillsCi) {
        for (const auto& [domain, ci] : *profile.skillsCi) {
            if (!(0 <= ci.first && ci.first <= ci.second && ci.second <= 1))
                m_sink.error(childPointer(childPointer(pointer, "skills_ci"), domain),
                             "expected [low, high] with 0 <= low <= high <= 1, got [" + formatNumber(ci.first) + ", " +
                                 formatNumber(ci.second) + "]");
        }
    }
    if (profile.trials) {
        const auto& rule = fieldRule("trials");
        for (const auto& [domain, count] : *profile.trials) {
            if (!rule.accepts(double(count)))
                m_sink.error(childPointer(childPointer(pointer, "trials"), domain),
                             "expected " + std::string(rule.expected) + ", got " + formatNumber(count));
        }
    }
    unknownKeys(pointer, profile.extra, "a model profile");
}

// The file is read here, so that a missing or bad one is a problem of the
// team like any other; its problems are reported at models_file, each
// naming the file and the place in it.
void FieldChecker::checkModelsFile(const BackendName& name, const std::string& pointer, const Backend& b)
{
    const auto where = childPointer(pointer, "models_file");
    if (b.modelsFile->empty()) {
        m_sink.error(where, "expected the path of a models file, got \"\"");
        return;
    }
    const auto path = ModelsFile::resolve(*b.modelsFile, m_context.teamFolder);
    const auto report = [&](const Problem& p) {
        Problem shown = p;
        shown.severity = Severity::Error; // the severity is the whole problem's, not part of its text
        auto message = "models file of backend \"" + name.str() + "\": " + formatProblem(shown, path.string());
        if (p.isError())
            m_sink.error(where, std::move(message));
        else
            m_sink.warning(where, std::move(message));
    };
    auto loaded = ModelsFile::load(path);
    for (const auto& p : loaded.problems)
        report(p);
    if (!loaded.file)
        return; // its models are taken on trust: one cause, one problem
    ProblemSink inFile;
    FieldChecker fileChecker(m_team, m_context, inFile);
    std::set<std::string> names;
    for (const auto& [model, profile] : loaded.file->models()) {
        fileChecker.checkProfile(childPointer("/models", model), profile);
        names.insert(model);
    }
    for (const auto& p : inFile.take())
        report(p);
    m_fileModels[&b] = std::move(names);
}

void FieldChecker::checkBackend(const BackendName& name, const Backend& b)
{
    const auto pointer = childPointer("/backends", name.str());
    range(pointer, "seed", b.seed);
    range(pointer, "time_scale", b.timeScale);
    if (b.kind == BackendKind::LocalMoe) {
        range(pointer, "max_concurrency", b.maxConcurrency);
        range(pointer, "background_inflight", b.backgroundInflight);
    }
    if (b.models) {
        for (const auto& [model, profile] : *b.models)
            checkProfile(childPointer(childPointer(pointer, "models"), model), profile);
    }
    if (b.modelsFile)
        checkModelsFile(name, pointer, b);
    if (b.kind == BackendKind::Recorded)
        checkRecorded(pointer, b);
    if (b.kind == BackendKind::OpenAi)
        checkOpenAi(pointer, b);
    // Another kind keeps exclude_designs as it keeps any key it does not read, and says why it does nothing.
    auto extra = b.extra;
    if (b.kind != BackendKind::Recorded && extra.is_object() && extra.contains("exclude_designs")) {
        m_sink.warning(childPointer(pointer, "exclude_designs"), "only a recorded backend replays designs");
        extra.erase("exclude_designs");
    }
    unknownKeys(pointer, extra, withArticle(std::string(toString(b.kind)) + " backend"));
}

void FieldChecker::checkRecorded(const std::string& pointer, const Backend& b)
{
    if (!b.experiments)
        m_sink.error(childPointer(pointer, "experiments"),
                     "a recorded backend needs experiments: the ids of the experiments whose calls it replays");
    else if (b.experiments->empty())
        m_sink.error(childPointer(pointer, "experiments"), "expected at least one experiment id");
    if (b.experiments) {
        for (size_t i = 0; i < b.experiments->size(); ++i) {
            if ((*b.experiments)[i].empty())
                m_sink.error(childPointer(childPointer(pointer, "experiments"), std::to_string(i)),
                             "expected an experiment id, got \"\"");
        }
    }
    if (b.db && b.db->empty())
        m_sink.error(childPointer(pointer, "db"), "expected the path of a run store, got \"\"");
    // Whether each names a design of the experiments is known when the team prepares (ExperimentRecordings).
    if (b.excludeDesigns) {
        const auto at = childPointer(pointer, "exclude_designs");
        if (b.excludeDesigns->empty())
            m_sink.error(at, "expected at least one design name");
        std::set<std::string> listed;
        for (size_t i = 0; i < b.excludeDesigns->size(); ++i) {
            const auto& design = (*b.excludeDesigns)[i];
            if (design.empty())
                m_sink.error(childPointer(at, i), "expected a design name, got \"\"");
            else if (!listed.insert(design).second)
                m_sink.error(childPointer(at, i), "\"" + design + "\" is listed twice");
        }
    }
    if (b.onMissing && *b.onMissing != "fail" && *b.onMissing != "simulate")
        m_sink.error(childPointer(pointer, "on_missing"), "expected fail or simulate, got \"" + *b.onMissing + "\"");
    range(pointer, "max_concurrency", b.maxConcurrency);
}

void FieldChecker::checkOpenAi(const std::string& pointer, const Backend& b)
{
    if (!b.baseUrl || b.baseUrl->empty())
        m_sink.error(childPointer(pointer, "base_url"), "an openai backend needs a base_url");
    else if (!b.baseUrl->starts_with("http://") && !b.baseUrl->starts_with("https://"))
        m_sink.error(childPointer(pointer, "base_url"),
                     "expected an http:// or https:// URL, got \"" + *b.baseUrl + "\"");
    // Never echo the value: it may be a key pasted where its variable's name belongs.
    if (b.apiKeyEnv && !isEnvironmentVariableName(*b.apiKeyEnv))
        m_sink.error(childPointer(pointer, "api_key_env"), "expected the name of an environment variable");
    if (b.maxTokensParam && *b.maxTokensParam != "max_tokens" && *b.maxTokensParam != "max_completion_tokens")
        m_sink.error(childPointer(pointer, "max_tokens_param"),
                     "expected max_tokens or max_completion_tokens, got \"" + *b.maxTokensParam + "\"");
    range(pointer, "max_concurrency", b.maxConcurrency);
    range(pointer, "requests_per_minute", b.requestsPerMinute);
    range(pointer, "connect_timeout_ms", b.connectTimeoutMs);
    if (b.headers) {
        for (const auto& [header, value] : *b.headers) {
            if (isSecretHeader(header) || toLowerAscii(value).starts_with("bearer "))
                m_sink.error(childPointer(childPointer(pointer, "headers"), header), kSecretMessage);
        }
    }
    if (b.prices) {
        for (const auto& [model, price] : *b.prices)
            checkPrice(childPointer(childPointer(pointer, "prices"), model), price);
    }
}

} // namespace conclave::checks
