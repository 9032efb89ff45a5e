// Package live holds the operations over a running OpenCode server, each
// through a *client.Client: launch an async task, resume one by its
// task_id, abort a session or a subtree, wait for a task and read its
// result, find sessions, read the tree (`octop tree`), a session's log and
// what sessions used. The subcommands call them directly; the screen asks
// for them as task requests, which its root runs on a Server (server.go),
// so both validate the same way and fail with the same one-line errors.
//
// Every operation validates what it can before it sends anything that
// changes the server: a bad id, an empty prompt or an unknown agent never
// leaves a half-made session behind.
package live
