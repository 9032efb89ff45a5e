// Package transcript is the transcript room: every message of one session
// in order (the prompt, markdown text, folded reasoning, tool calls with
// their input digest and first lines of output, errors), tailing live
// while the session runs. It owns its scroll position, cursor, expanded
// entries and search; it returns requests (Close, OpenChild) and never
// talks to the server: the root loads the messages (Loaded) and forwards
// the stream's events (ApplyEvents).
//
// It asks for the newest FirstPage messages first and draws them, then for
// the whole session, so a long one shows its end at once.
//
// Drawing costs what is visible: the view is anchored at an entry and a
// line inside it, and renders (and caches, by width and entry) only the
// entries that reach the screen, so scrolling at entry 5,000 costs what it
// does at entry 10 (BenchmarkFirstScreen and BenchmarkScroll; figures in
// docs/perf.md).
package transcript
