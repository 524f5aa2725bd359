#pragma once

namespace conclave::studio {

// `conclave-studio --bench-search`: how responsive the studio stays while a
// design search runs. The main window opens triage, Run > Search Designs…
// searches its proposed space (SpaceProposal) on the math task set with a
// budget of kBudget search trials, seed 1, into a fresh store, through the
// dialog's SearchController, and a timer on the GUI thread, due every
// kTickMs, measures how late each of its ticks came. Prints, per repeat and
// as medians: the longest stall (a tick's lateness), the 99th percentile, the
// progress updates drawn, the trials (search, validation and test) per
// second. Target: the longest stall <= 50 ms.
int runSearchBench(int repeats);

} // namespace conclave::studio
