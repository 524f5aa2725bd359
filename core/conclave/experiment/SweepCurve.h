#pragma once

#include "conclave/analysis/CurveBootstrap.h"
#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/experiment/Provenance.h"
#include "conclave/store/ExperimentRecords.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// A sweep judged on its quality–cost curve (docs/routing.md): when an
// experiment's designs include variants of one team that differ in one field
// of a router, or of a cascade or adaptive coordinator (eval --vary with one
// PATH on that node), the variants are one curve, and the experiment's
// single-model designs (ModelOutcomes::singleModel) are its reference points
// and its cost axis. CurveBootstrap gives AIQ for every curve, and APGR,
// CPT(50 %) and CPT(80 %) for a learned `strong_weak` router and a
// two-member cascade whose two models both have a single-model design.
//
// Tasks: those every design of the curve — variants and references — scored
// at least once, less every task a variant's router or scorer file was
// trained on (its `trained_on` tasks, matched by id alone: a set named
// another way must not let a trained task back in), so the figures are held out. Per task and design: quality is
// the share of its scored trials that were right (a failed trial is wrong),
// cost the mean cost of its trials, and the strong share the share of its
// trials in which the strong route's expert (a cascade: the second member) ran.
struct SweepCurve {
    struct Reference {
        size_t design = 0;
        std::string model;
    };
    struct Series {
        std::string team;                // the variants' design name without their parameters
        std::string path;                // the one swept field
        std::string node;                // the router or coordinator it belongs to
        std::string kind;                // "strong_weak router", "router", "two-member cascade", "cascade"
        std::vector<size_t> designs;     // the variants, in the experiment's order
        std::vector<std::string> values; // each variant's value, as its name shows it
        std::string weak;                // the two models, for strong_weak and two-member cascades
        std::string strong;
    };

    std::vector<Reference> references;
    std::vector<Series> series;
    size_t tasks = 0;      // the tasks the figures are over
    size_t trainedOn = 0;  // tasks left out because a router or scorer file was trained on them
    Provenance provenance; // of the curve's designs' calls: replayed, simulated or measured
    // Why a figure is missing, or what to read the curve with, in the order found.
    std::vector<std::string> notes;
    std::optional<CurveReport> figures; // unset when nothing could be computed (the notes say why)

    static constexpr int kResamples = 2000;

    // Unset when no design is a variant of a router or cascade field. Files
    // named by the variants are found from each design's `path` folder.
    static std::optional<SweepCurve> of(const std::vector<ExperimentDesign>& designs,
                                        const std::vector<TrialRecord>& trials);
};

} // namespace conclave
