// Package result is the `o` room: a scrollable view of one session's
// outcome in async-task terms (running with its tool calls, refreshed
// each second; complete with the answer rendered as markdown; error with
// its name and message; not found). It asks for the result with
// task.ResultRequest and draws the task.ResultReply it gets back.
package result
