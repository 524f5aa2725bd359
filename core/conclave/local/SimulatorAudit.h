#pragma once

#include "conclave/local/LocalResponder.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace conclave {

// What `conclave bench sim` measures (docs/simulator.md): every model
// answers every task of a set under each seed as a lone agent would (one
// call, retried up to three attempts on a failure), and the answers are
// compared with the truth and with each other:
//   agreement     over pairs of models both wrong on one task and seed of a
//                 task with 4 choices, the share that gave the same answer
//   correlation   per pair of models, Pearson's r of correctness over
//                 (task, seed); the mean over pairs whose r is defined
//   cells         per model and domain, accuracy against the profile's skill
//                 (a set whose tasks are harder than typical sits below it)
//                 and against the curve's mean over the answered tasks
//                 (ItemBank::pCorrect; only sampling noise sits between)
//   confidence    per model, the confidences it stated with its right and
//                 with its wrong answers (`bench sim` prints their AUROC)
//   votes         plurality votes of some models (ties go to the answer of
//                 the earliest model among the tied), against the best one
class SimulatorAudit {
public:
    struct Cell {
        std::string model;
        std::string domain;
        int64_t answers = 0; // scored answers: tasks × seeds, failed calls left out
        double accuracy = 0;
        double skill = 0;
        double expected = 0; // the mean of P(skill, z) over the answered tasks
    };
    struct Confidences {
        std::string model;
        std::vector<double> right; // stated with right answers, as the reply wrote them
        std::vector<double> wrong;
    };
    struct Vote {
        std::vector<std::string> models;
        double accuracy = 0; // over every (task, seed); a vote with no answer is wrong
    };
    struct Result {
        int64_t bothWrong = 0; // pairs both wrong on 4-choice tasks
        int64_t agreeing = 0;
        double agreement = 0;
        int64_t pairs = 0;
        double meanCorrelation = 0;
        std::vector<Cell> cells;
        std::vector<Confidences> confidences; // per model, in model order
        double meanAbsGap = 0;
        double maxAbsGap = 0;        // signed: the gap farthest from 0
        double meanAbsFromCurve = 0; // mean over the cells of |accuracy − expected|
        Vote bestSingle;             // the voter with the best accuracy
        std::vector<Vote> threeWay;  // every three of the voters, in order
        Vote allVoters;              // all of them
        int64_t calls = 0;
    };

    // Voters: the models whose votes are measured (at least 3 for threeWay).
    static Result run(std::shared_ptr<const LocalResponder::Profiles> profiles, std::shared_ptr<const Gate> gate,
                      std::shared_ptr<const TaskSet> tasks, const std::vector<uint64_t>& seeds,
                      const std::vector<std::string>& voters);
};

} // namespace conclave
