#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace conclave {

// The joint item-response fit behind `conclave calibrate` (docs/calibration.md),
// with the simulator's own curve (ItemBank): model m answers task t of domain d
// right with probability
//     P = Φ((a_md − √w_m·z_t) / √(1 − w_m)),   z_t ~ N(0, 1)
// where a_md is the model's ability in the domain (its skill is Φ(a_md)), w_m
// its difficulty weight (the share of its latent variance that belongs to the
// task) and z_t the task's difficulty. Written as a two-parameter normal ogive,
//     P = Φ(α_md − β_m·z_t),   α = a/√(1 − w),   β = √w/√(1 − w) ≥ 0,
// the fit is:
//   α, β   marginal maximum likelihood, z integrated out over its N(0, 1) prior
//          by Gauss–Legendre quadrature on [−6, 6] (41 nodes), maximised by
//          EM (Bock & Aitkin, Psychometrika 1981): the E step weighs each
//          task's nodes by their posterior, the M step takes Newton steps in
//          each α and β on the expected counts. β is kept in [0, 7]
//          (w ≤ 0.98) and a in [−6, 6]. A model whose answers share no task
//          with another answer (another model's, or its own on another seed)
//          says nothing about w: its β stays at the given weight's.
//   z_t    the posterior mode given the fitted α, β under the N(0, 1) prior
//          (Newton on a concave function), clamped to [−5, 5].
// Answers are independent given z, each counting by its weight (its
// log-likelihood times the weight): repeated answers of one model to one
// task that are copies of one call count as one between them. Pure, deterministic, never throws.
class JointFit {
public:
    struct Response {
        size_t model = 0;
        size_t domain = 0;
        size_t task = 0;
        bool correct = false;
        // How much the answer counts: 1, or less for copies of one answer
        // (ModelCalibration weighs n copies 1/n each, so they count as one).
        double weight = 1;
    };
    struct Input {
        size_t models = 0;
        size_t domains = 0;
        size_t tasks = 0;
        std::vector<Response> responses;
    };
    struct Options {
        double startWeight = 0.7;  // w where it starts, and where it stays when the data cannot tell
        int maxIterations = 2000;
        double tolerance = 1e-9;   // EM stops when the log-likelihood gains less than this per response
    };
    struct Result {
        std::vector<std::vector<double>> ability; // [model][domain]: a; NaN where the model answered nothing
        std::vector<double> weight;               // [model]: w
        std::vector<bool> weightFitted;           // [model]: false when the data could not tell (startWeight)
        std::vector<double> difficulty;           // [task]: z; 0 for a task nobody answered
        double logLikelihood = 0;                 // marginal, at the fitted α, β
        int iterations = 0;
        bool converged = false;
    };

    static Result fit(const Input& input, const Options& options);
    static Result fit(const Input& input) { return fit(input, Options{}); }

    // The posterior mode of one task's z given its responses' η(z) = alpha − beta·z
    // (one pair and outcome per response), under the N(0, 1) prior, in [−5, 5].
    struct Line {
        double alpha = 0;
        double beta = 0;
        bool correct = false;
        double weight = 1;
    };
    static double posteriorMode(const std::vector<Line>& lines);
    // The posterior mean of f(z) given the lines, on the fit's quadrature under
    // the N(0, 1) prior: what a task's answers predict of another call on it,
    // the task's uncertain difficulty integrated out rather than read at its mode.
    static double posteriorMean(const std::vector<Line>& lines, const std::function<double(double)>& f);
};

} // namespace conclave
