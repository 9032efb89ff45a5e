// Package transcript turns one session's messages into the entries a
// person reads in order: the prompt, the assistant's text and reasoning,
// each tool call with a one-line digest of its input and its output, the
// errors its messages ended with, the task calls that started child
// sessions, and the end notices of background tasks (OpenCode 1.18 adds
// them to the parent as synthetic user messages: they are the server's
// words, never shown as a prompt). It renders them as plain text and as NDJSON (`octop log`), and
// Follower tells which entries are settled enough to print once.
//
// It is pure: no I/O but the io.Writer it is handed, no clock. The ui's
// transcript view draws the same entries.
package transcript
