package model

// maxTitle bounds a session's title as the model keeps it. No row shows
// more, and every title is drawn, matched by the filter and printed: a
// server's title of many megabytes held the screen at full CPU for
// seconds a frame.
const maxTitle = 1 << 10

// titleTail is how much of a long title's end is kept, enough for the
// " (@agent subagent)" OpenCode's task tool appends, which names the
// child's agent.
const titleTail = 64

// boundTitle is title as a session keeps it: whole up to maxTitle bytes;
// longer, its start and its last titleTail bytes joined by "…", cut on
// rune boundaries.
func boundTitle(title string) string {
	if len(title) <= maxTitle {
		return title
	}
	tail := boundTail(title, titleTail)
	return boundHead(title, maxTitle-len(tail)-len("…")) + "…" + tail
}
