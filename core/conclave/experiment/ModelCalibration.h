#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/analysis/Quantile.h"
#include "conclave/experiment/CalibrationSamples.h"
#include "conclave/io/ModelsFile.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// Fits a simulator profile per model from what stored experiments measured
// (CalibrationSamples), so the local-moe backend can stand in for real
// models. docs/calibration.md explains each field; the formulas:
//   ttft_ms, output_tokens   median and p95 = Quantile::of at 0.5 and 0.95
//                            over successful attempts (ttft: those that
//                            streamed a token)
//   tokens_per_s             speed = tokens_out / (end − first token) of the
//                            successful attempts that streamed; median, and
//                            as p95 the slow tail: the 0.05 quantile (≤ median)
//   failure_rate             failed attempts / finished attempts (ok + failed)
//   price_per_mtok           least squares without intercept of each
//                            successful attempt's cost on its tokens in and
//                            out, ×10⁶: solve [Σi² Σio; Σio Σo²]·(a, b) =
//                            (Σci, Σco); a negative price is set to 0 and the
//                            other refitted alone; when the system is singular
//                            (every call has one in:out ratio) both are
//                            Σc(i+o) / Σ(i+o)²; 0 and 0 when every cost is 0
//   context_tokens           Options::contextTokens' (`--context`), else the
//                            catalog's, for a model it knows; else none (no
//                            limit), with a warning: the longest prompt seen
//                            says nothing about the window
//   skills, skills_ci,       per domain: Φ(a) of the joint fit (JointFit: the
//   trials                   simulator's curve fitted to every model's answers
//                            at once, each task's difficulty integrated out);
//                            Wilson's 95 % interval of the accuracy
//                            (ExperimentStats::wilson) read as skills through
//                            the tasks' fitted difficulties (ItemBank::skillFor),
//                            widened to hold the fitted skill; and the count
//   error_agreement          PairwiseAgreement: pairs of different models both
//                            wrong on a task with choices, converted to the
//                            simulator's chance of the attractive wrong answer
//   (load)                   ttft and speed are read unloaded: each call's times
//                            divided by 1 + s·(inflight − 1), s from
//                            BehaviourFit::load (0 when it cannot tell)
//   (first attempts)         latency and length are read from first attempts
//                            only; a timed-out one is censored (Kaplan–Meier),
//                            its p95 extrapolated when censoring hides it
//   retry_repeat             (f − q) / (1 − q) clamped to [0, 1]: f the share of
//                            retries after a timeout that timed out, q of first
//                            attempts; needs kMinRetries such retries
//   repeat_agreement         RepeatAgreement: how often its answers to one task
//                            under two seeds agree beyond what the task's
//                            difficulty makes them; needs RepeatAgreement::kMinTasks
//                            tasks answered under several seeds
//   conformity               BehaviourFit::conformity over the model's meeting
//                            turns shown earlier turns (CalibrationSamples::
//                            MeetingTurn), each turn's chance alone read from
//                            the fitted skill at the task's fitted difficulty
// Figures are rounded for reading: ms, tokens and tokens/s to 0.1, shares to
// 4 decimals, prices to 6 significant digits. Pure: no I/O, never throws.
class ModelCalibration {
public:
    static constexpr int64_t kMinRetries = 5;
    struct Options {
        std::vector<std::string> models;              // only these; empty: every model seen
        int64_t minCount = 30;                        // fewer answers (or calls) than this gets a warning
        std::map<std::string, int64_t> contextTokens; // measured context windows (--context), by model
    };
    struct Result {
        ModelsFile::Profiles models;
        std::map<std::string, double> difficulties; // each answered task's fitted z, by CalibrationSamples::Answer::task
        std::vector<std::string> warnings; // thin data, one line each, naming the model and the count
        std::string error; // a model asked for (or given a context) that the samples never called; nothing else set
    };

    static Result fit(const CalibrationSamples& samples, const ModelsFile::Profiles& catalog, const Options& options);

    // The tasks the samples answered, each with its fitted difficulty (to 4
    // decimals) in place of its own, ordered by set and id; an id that two
    // pooled sets both hold is written SET/ID (SET: the set's name, a file's stem).
    static std::vector<Task> measuredTasks(const CalibrationSamples& samples, const Result& fitted);

    // The fields a fitted profile does not name in `fitted`: where the
    // simulator keeps its built-in defaults ("not measured — built-in default used").
    static std::vector<std::string> defaultsKept(const ModelProfile& profile);

    // Reads one `--context MODEL=TOKENS` (split at the last '='; TOKENS a
    // positive integer) into options.contextTokens. False, with `error` saying
    // what is wrong, for bad text or a model already given another window.
    static bool addContext(std::string_view text, Options& options, std::string& error);

    // The building blocks, public so they can be tested on their own.
    // Median and p95 of values where higher is slower (Q(0.95)), or of speeds (Q(0.05)).
    static Distribution distribution(std::vector<double> values, bool higherIsSlower = true);
    // Median and p95 where some values are right-censored (a timed-out call's
    // first token or length): Quantile::ofCensored, Kaplan–Meier; with none
    // censored, the distribution above.
    static Distribution distribution(const std::vector<Quantile::Observed>& values);
    static Price price(const std::vector<CalibrationSamples::Call>& okCalls);
};

} // namespace conclave
