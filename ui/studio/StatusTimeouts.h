#pragma once

// How long a status-bar message stays, in milliseconds, named by what the
// message says: a note on an edit goes quickly, a failure stays long enough to
// be read, and a state (a run under way, its outcome) stays until the next one.
namespace conclave::ui::StatusTimeouts {

// Stays until the next message: the welcome hint, a run under way and its
// outcome, a file that could not be opened or saved, an unreadable template.
inline constexpr int kUntilReplaced = 0;
// A step under way that its outcome soon replaces ("Stopping…").
inline constexpr int kProgress = 3000;
// A note on an edit or the selection: a new team, what is selected, what was
// copied, an edge that carries no route label.
inline constexpr int kEditNote = 4000;
// A file was read or written: a team opened, saved or exported, a chart saved.
inline constexpr int kFileDone = 5000;
// The user has to supply something first: an input for the run, team JSON on
// the clipboard.
inline constexpr int kNeedsInput = 6000;
// The run store changed, or a run was exported from it (or could not be).
inline constexpr int kRunStoreDone = 6000;
// What the canvas says while ports are being connected: how, why not, done.
inline constexpr int kCanvasGuide = 8000;
// A run view or history request that failed: a run that cannot be opened,
// replayed, compared or re-run, a team with no latency plot, a store error.
inline constexpr int kRequestFailed = 8000;
// The run did not start: the reason is to be fixed in the team.
inline constexpr int kRunRefused = 10000;

} // namespace conclave::ui::StatusTimeouts
