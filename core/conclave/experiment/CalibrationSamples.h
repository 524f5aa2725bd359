#pragma once

#include "conclave/local/TaskSet.h"
#include "conclave/store/RunQueries.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// What a model calibration is fitted from, read out of stored experiments
// (and of served runs, for their calls alone: readServed):
// every finished call attempt of their trials' runs, and the answer each
// answering node gave, scored as a trial is (its reply read by ReplyParser,
// as the engine stores it, then AnswerScorer against the task's reference)
// and credited to the model of the node's last successful attempt, the one
// whose reply it is.
//
// Answering nodes are the experts that answer the task on their own: every
// expert but the members of a round_robin or debate coordinator (they answer
// after reading the others' answers, which would mix the models' skills), of
// a decompose one (they answer subtasks) and of a cascade when their prompt
// shows the earlier members' answers ({{transcript}}). So a router's choice, an
// aggregator's synthesis and a coordinator's plan or combine are never
// scored, and judge runs are not stored with the trials. A synthesizer's
// answer is read apart (Synthesis): scored against its candidates'.
class CalibrationSamples {
public:
    struct Call {
        std::string model;
        bool ok = false;       // finished ok; else failed, or timed out (cancelled attempts are left out)
        bool timedOut = false; // cut off by its timeout: it was going to take longer than durationMs (censored)
        double durationMs = 0; // start to end
        double ttftMs = -1;    // -1 when no token was streamed
        int64_t tokensIn = 0;
        int64_t tokensOut = 0;
        double costUsd = 0;
        int64_t inflight = 0; // calls in flight on its endpoint when it was admitted, itself included (0: not known)
        int attempt = 1;      // 1 for a call's first attempt, 2 for its first retry, ...
        bool afterTimeout = false; // a retry whose attempt before it timed out
    };
    struct Answer {
        std::string model;
        std::string domain;
        std::string task; // the task set's name, a newline and the task's id: one key across experiments
        bool hasChoices = false;
        std::string answer; // normalised
        bool correct = false;
        double difficulty = 0; // the task's z as the task set gives it (ItemBank::difficulty)
        int wrongOptions = 0;  // a task with choices: its distinct wrong choices (WrongAnswers); else 0
        double confidence = 0.5; // as the engine read it (ReplyParser: 0.5 when the reply states none)
        size_t experiment = 0;   // which of `experiments` it was read from
        uint64_t seed = 0;       // its trial's seed
        bool answerLine = false; // the reply gave it on an "Answer:" line (ReplyParser)
    };
    // A synthesize aggregator that called its model: how many of the answers
    // it was given were right, and what it made of them.
    struct Synthesis {
        std::string model;
        int candidates = 0;
        int right = 0;     // candidates whose answer is right
        bool correct = false;
        bool own = false;  // its answer is none of the candidates'
    };

    // A meeting member's turn that was shown earlier turns of its meeting (a
    // debate's later rounds, a round_robin's later speakers; a member whose
    // prompt leaves {{transcript}} out is shown none): whether the
    // most common answer among them (a tie: the one shown first) was right,
    // and whether the member's was. Read from the attempt's streamed text.
    struct MeetingTurn {
        std::string model;
        std::string domain;
        std::string task;       // as Answer::task
        double difficulty = 0;  // as Answer::difficulty
        bool pluralityRight = false;
        bool correct = false;
        // The turns it was shown that were themselves shown none (a debate's
        // first round): each one's model and whether it was right. They say
        // how hard this trial's task was, as the task's other answers do.
        std::vector<std::pair<std::string, bool>> shownAlone;
    };

    std::vector<Call> calls;
    std::vector<Answer> answers;
    std::vector<Synthesis> syntheses;
    std::vector<MeetingTurn> meetingTurns;
    std::vector<std::string> experiments; // the ids read, each once, in the order given
    std::vector<int64_t> answersPerExperiment; // scored answers read from each, in that order
    // The tasks answered, by Answer::task, each with the name of its set.
    struct MeasuredTask {
        std::string set;
        Task task;
    };
    std::map<std::string, MeasuredTask> tasks;
    int64_t trials = 0;
    int64_t servedRuns = 0; // runs readServed read

    // Which trials to read, by their task: (the task set's content hash, the
    // task's id) → read it. A TaskSplit's part, for calibrating on one part.
    using TaskFilter = std::function<bool(std::string_view tasksetHash, std::string_view taskId)>;

    // Reads the experiments an id or unique prefix each names (only the
    // trials `keep` keeps, when given: their calls, answers and syntheses).
    // Unset, with `error` saying which and why, when one is unknown or its
    // task set cannot be reloaded unchanged (ExperimentSetup::storedTasks).
    static std::optional<CalibrationSamples> read(RunQueries& store, const std::vector<std::string>& experimentIds,
                                                  const std::filesystem::path& resourcesDir, std::string& error,
                                                  const TaskFilter& keep = {});

    // Adds the calls of the runs `conclave serve` stored (runs.source `serve`)
    // that started at or after `sinceMs` (Unix ms), read as an experiment's
    // are. Only calls: a served run has no known answer, so it adds no
    // answers, syntheses nor meeting turns. False, with `error`, when the
    // store cannot be read.
    bool readServed(RunQueries& store, int64_t sinceMs, std::string& error);
};

} // namespace conclave
