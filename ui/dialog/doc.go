// Package dialog holds the forms and confirmations the action keys open:
// the launch form (n, N; with NewRetry, the retry form, a), the resume
// form (r), the wait-for-it dialog (r on a running session), resume by
// task_id (R), the steer form (m) and the abort confirmation (x, X). Each is an room.Dialog that owns its fields and keys and
// returns requests (LaunchRequest, ResumeRequest, AbortRequest…) for
// the root to carry out; none of them reaches the server itself. frame.go
// has the box, widths and styles the other rooms (inbox, result) share.
package dialog
