// Package inflight keeps the screen's requests under way. Each runs in a
// tea.Cmd with a context whose cancel List keeps, so esc and ctrl+c can
// stop it, and its reply comes back tagged, so the reply of a cancelled
// request is dropped. It also holds the root's own reads (the snapshot,
// the server's health) as commands. Nothing here knows HTTP: the requests
// go to a task.Server.
package inflight
