// Package servers is the screen for several OpenCode servers at once.
//
// It holds one ui.Model per server, each with its own tree, connection
// state, version, counts and task.Server, and draws them as one tree: each
// server a group line (number, host, OpenCode version, connection, its
// counts) followed by that server's rows as its own tree pane draws them,
// faint while it is out of reach. The cursor moves across all of them
// (cursor.go); the selected row's server owns the keys, so an action
// taken on a session goes through that server's task.Server and ids of two
// servers are never mixed (route.go). A group folds to its line. The
// detail pane is the selected server's, showing its session, or on a
// group line the server itself; a room that server opens (a form, the
// inbox, a transcript) is drawn whole until it closes (view.go).
//
// Each server's screen is told which of its rows the one tree shows
// (ui.ShownMsg, shown.go): its history reader reads those at once and
// keeps them whole, not the rows its own tree pane would show.
//
// Each server's events come in wrapped in a Msg naming the server; each
// screen's commands are wrapped so their replies come back to it, and a
// server that is down or slow holds up only its own group.
//
// The first line is a bar of the servers: each one's connection and
// counts, the sums over all, and how many are down. [ and ] (or 1-9)
// jump to a server's group.
package servers
