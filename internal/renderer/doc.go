// Package renderer draws octop's frames on the terminal, in place of Bubble
// Tea's renderer, and runs the program around it.
//
// # Why
//
// Bubble Tea's renderer parses every changed frame into cells, whole
// screen, and diffs it cell by cell against the last one: at 200x50 that
// is 10,000 cells of grapheme and width work for a frame in which one row
// changed; ui's BenchmarkFrame (Update, View and the terminal's work for
// one frame of bench-live's screen) compares the two (docs/perf.md).
// octop's views are built of whole, width-fitted lines, and its rows are
// cached, so a frame is cheapest compared line by line: a line that is the
// same string as on the terminal is not touched, a changed one is written
// whole and erased to its end.
//
// # How
//
// The program runs without a renderer (tea.WithoutRenderer); Run puts the
// terminal in raw mode, the alternate screen and mouse reporting itself,
// sends the program its size on start and on every SIGWINCH, and restores
// the terminal when the program ends. The model is wrapped so each View it
// returns is handed to the Screen, which draws it from its own goroutine:
// at once when the last frame is older than the interval (the frame cap),
// else at the end of the interval, with whatever content is newest then.
// A view that answers a key press, a click or a paste is drawn at once
// (SetNow): the cap is for a busy stream, and input should not wait
// behind it.
// A frame is never skipped when the content changed, only merged with the
// changes after it; nothing is drawn, and nothing wakes, while the content
// stays the same.
//
// Each frame is one write, wrapped in synchronized output (mode 2026), with
// autowrap off so a line that is too long is cut at the margin instead of
// pushing the screen down. Colours are brought down to what the terminal
// supports (colorprofile), as Bubble Tea's renderer did.
//
// OCTOP_RENDERER=bubbletea runs the program with Bubble Tea's own renderer
// instead (see README): for comparison, and for a terminal this one draws
// badly on.
package renderer
