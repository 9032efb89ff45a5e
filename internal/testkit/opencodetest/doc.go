// Package opencodetest is the one fake OpenCode server for unit tests.
//
// It answers the routes octop uses with the shapes the real servers send
// (recorded in shared/reference/opencode and checked by hand against
// opencode serve 1.18.33 and 1.1.65): health, sessions and their children,
// status, messages, agents, projects, create / prompt_async / abort /
// delete, pending permissions and questions and their replies, the paged
// GET /experimental/session, and the /event and /global/event streams.
//
//	srv := opencodetest.New(t, opencodetest.Options{})
//	srv.AddSession(wire.Session{ID: "ses_root", Title: "root"})
//	srv.SetStatus("ses_root", wire.SessionStatus{Type: wire.StatusBusy})
//	c, _ := client.New(client.Options{BaseURL: srv.URL()})
//	… run the code under test …
//	srv.Mutations() // ["POST /session/ses_root/abort"]
//
// What it is not: it runs no model. A prompt is recorded and changes
// nothing; a test sets the statuses and messages a run would leave
// (SetStatus, SetMessages) or Emits the events it would send. Create,
// delete, abort and the replies do change its state and emit their events.
//
// Where the versions differ it follows Options.Version (V118 by default):
// 1.1.65 answers 404 only on GET /session/{id}; for an unknown session it
// lists no children or messages, accepts a prompt (204) and a delete, and
// answers true to a reply to an unknown request; it has no
// /experimental/session (a 500) and sends events without ids. A malformed
// id on abort is a 500 on 1.18.33 and true on 1.1.65.
//
// Hooks: Handle and HandleFunc put a handler of one's own in front of a
// route pattern ("POST /session/{id}/prompt_async", "GET /event", or "/"
// for everything), Fail answers a route with an error in the server's
// shape, Requests and Mutations say what was asked, Stop and Start take
// the server down and bring it back on the same address.
package opencodetest
