#pragma once

#include <QSize>
#include <QStringList>

#include <optional>

class QApplication;

namespace conclave::studio {

// The studio's run views from the command line:
//   --run RUN_ID [--db FILE] [--screenshot OUT.png]
//   --replay RUN_ID --at MS [--db FILE] [--screenshot OUT.png]
//   --compare RUN_A RUN_B [--db FILE] [--screenshot OUT.png]
//   --experiment ID [--db FILE] [--screenshot OUT.png]
//   --whatif RUN_ID [--speed NODE=PERCENT]... [--concurrency BACKEND=N]... [--db FILE] [--screenshot OUT.png]
//   --bench-timeline [--db FILE]
//   --bench-whatif [--moves N] [--db FILE]
// Returns the exit code when the arguments name one of these, else nothing
// (and main() goes on to open the editor). Without --screenshot the view is
// shown until closed. The database is found as the CLI finds it
// (--db, else $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite).
// Every view accepts --theme light|dark and --size WxH (default 1400 wide).
std::optional<int> runRunViewCommand(QApplication& app, const QStringList& args);

// `--size 1280x800`: a screenshot's size; unset (and `error` says why) when it is not WIDTHxHEIGHT, each 200 to 8000.
std::optional<QSize> parseScreenSize(const QString& text, QString& error);

// `--bench-timeline`: stores synthetic runs of 10,000 and 100,000 spans and
// prints the medians of open + first draw and of a scrub step's redraw.
int runTimelineBench(const QString& dbFile);

} // namespace conclave::studio
