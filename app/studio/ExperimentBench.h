#pragma once

namespace conclave::studio {

// `conclave-studio --bench-experiment`: how responsive the studio stays while
// an experiment runs. The main window opens keyword-vote, Run > Evaluate
// Designs… evaluates it against the cascade on 70 math tasks × 50 seeds
// (7,000 trials, simulated clock) into a fresh store, and a timer on the GUI
// thread, due every kTickMs, measures how late each of its ticks came. Prints,
// per repeat and as medians: the longest stall (a tick's lateness), the 99th
// percentile, the progress updates drawn, the trials per second; and the time
// to open the finished experiment's tab. Target: the longest stall <= 50 ms.
int runExperimentBench(int repeats);

} // namespace conclave::studio
