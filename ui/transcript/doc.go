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
// does at entry 10. Measured on 2 cores under a load average of about 9
// (other engineers' builds), 20 iterations, 3 runs, with ui/markdown's
// goldmark renderer (glamour before it drew a fresh screen in 9.6-11.5 ms):
//
//	go test -run '^$' -bench . -benchtime 20x -count 3 ./ui/transcript/
//
//	BenchmarkFirstScreen (5,000 parts, fetched → first screen)  18-29 ms   (target < 200 ms)
//	BenchmarkScroll/at=10/cached        0.01-0.02 ms
//	BenchmarkScroll/at=4990/cached      0.02-0.09 ms
//	BenchmarkScroll/at=10/fresh         0.08-0.20 ms  (every visible entry drawn again, markdown included)
//	BenchmarkScroll/at=4990/fresh       0.09-0.10 ms
package transcript
