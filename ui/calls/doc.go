// Package calls carries the rooms' intents to the server: Ops, the one
// interface of server operations the screen uses, and InFlight, the calls
// under way. Each call runs in a tea.Cmd with a context whose cancel
// InFlight keeps, so esc and ctrl+c can stop it, and its reply comes back
// tagged, so the reply of a cancelled call is dropped. Nothing here knows
// HTTP: package ops implements Ops over the client, tests use fakes.
package calls
