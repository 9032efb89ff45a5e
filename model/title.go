package model

import "strings"

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

// taskSuffix ends the title OpenCode's task tool gives a child:
// "<description> (@<agent> subagent)".
const taskSuffix = " subagent)"

// SplitTitle separates a child's description from the agent its task
// title names in the " (@agent subagent)" suffix, as a row draws them
// ("worker 1 (@general subagent)" is drawn "worker 1 @general"). A title
// without the suffix comes back whole with no agent. The parts are the
// server's text: clean them before they reach a terminal.
func SplitTitle(title string) (desc, agent string) {
	head, ok := strings.CutSuffix(title, taskSuffix)
	if !ok {
		return title, ""
	}
	i := strings.LastIndex(head, "(@")
	if i < 0 {
		return title, ""
	}
	agent = head[i+2:]
	if agent == "" || strings.ContainsAny(agent, "() \t") {
		return title, ""
	}
	return strings.TrimRight(head[:i], " \t"), agent
}
