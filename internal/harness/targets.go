package harness

// The experimental switches of OpenCode 1.18, read from the server's
// environment (Config.Env).
const (
	// BackgroundEnv turns on background subagents: the task tool's
	// "background" argument, and an end notice to the parent (a synthetic
	// user message) when each background child ends.
	BackgroundEnv = "OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=1"
	// EventSystemEnv turns on the v2 event system (/api/event). On 1.18.33
	// and 1.18.34 /api/* is served with or without it.
	EventSystemEnv = "OPENCODE_EXPERIMENTAL_EVENT_SYSTEM=1"
)
