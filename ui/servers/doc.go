// Package servers is the screen for several OpenCode servers at once.
//
// It holds one ui.Model per server, each with its own tree, connection
// state, version, counts and ui.Ops: an action taken on a session goes
// through the Ops of the screen that shows it, so it reaches the server
// that owns the session, and ids of two servers are never mixed. Each
// server's events come in wrapped in a Msg naming the server; each
// screen's commands are wrapped so their replies come back to it, and a
// server that is down or slow holds up only its own screen.
//
// The first line is a bar of the servers: each one's name, connection
// and counts, the sums over all, and how many are down. [ and ] (or 1-9)
// switch the screen below it to another server.
package servers
