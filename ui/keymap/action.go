package keymap

// Action is what one of the reserved keys asks for.
type Action int

// The reserved actions, one per key.
const (
	ActionLaunch     Action = iota // n: launch a new task
	ActionResume                   // r: resume the selected session
	ActionResumeByID               // R: resume a session by typed task_id
	ActionAbort                    // x: abort the selected session
	ActionAbortTree                // X: abort the selected session's subtree
	ActionOpen                     // o: open the selected session's result
	ActionCopyID                   // y: copy the selected session's task_id
	ActionInbox                    // i: the inbox of pending permissions and questions
	ActionLaunchRoot               // N: launch a task as a new root session
	ActionTranscript               // t: the selected session's transcript
	ActionDiff                     // d: the files the selected session changed
	ActionTimeline                 // T: the selected subtree's timeline
	ActionUsage                    // $: what the selected subtree used
	ActionSteer                    // m: tell the selected session something while it runs
	ActionRetry                    // a: start the selected session's task again beside it
	ActionUndo                     // u: undo what the selected session changed
	ActionRedo                     // U: redo it
)

var actionNames = [...]string{"launch", "resume", "resume by id", "abort", "abort subtree", "open", "copy task_id", "inbox", "launch root", "transcript", "files changed", "timeline", "usage", "tell", "retry", "undo", "redo"}

// String names the action, e.g. "abort subtree".
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "action"
}

// ReadOnly reports whether the action leaves the server alone.
func (a Action) ReadOnly() bool {
	return a == ActionOpen || a == ActionCopyID || a == ActionInbox ||
		a == ActionTranscript || a == ActionDiff || a == ActionTimeline || a == ActionUsage
}
