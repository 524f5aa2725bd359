#pragma once

#include "conclave/experiment/BehaviourFit.h"
#include "conclave/experiment/CalibrationSamples.h"

#include <map>
#include <string>
#include <vector>

namespace conclave {

// Each model's conformity in meetings (BehaviourFit::conformity), from the
// samples' meeting turns (docs/calibration.md). A turn's chance alone is its
// model's fitted curve averaged over the task's difficulty given every scored
// answer to the task and the first-round turns it was shown
// (JointFit::posteriorMean), not read at the difficulty's posterior mode: the
// mode is shrunk towards 0, so on an easy task a member right alone would look
// more right than its curve says, and the fit would credit its plurality.
// Pure, never throws.
class ConformityFit {
public:
    // A model's fitted curve: its skill per domain and its difficulty weight.
    struct Curve {
        std::map<std::string, double> skills;
        double weight = 0;
    };

    // `answerWeights`: how much each of samples.answers counts (copies of one
    // call count once between them, as in the joint fit). A model appears
    // when its turns tell conformity (BehaviourFit::conformity with at least
    // one turn).
    static std::map<std::string, BehaviourFit::Conformity> fit(const CalibrationSamples& samples,
                                                               const std::vector<double>& answerWeights,
                                                               const std::map<std::string, Curve>& curves);
};

} // namespace conclave
