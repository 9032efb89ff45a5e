// Package replay plays a recording (package record) back to the screen as
// it was received: the same events, connection changes and snapshot
// replies, at the pace they came (or faster, slower, paused), with a
// clock that runs on the recording's time so elapsed times read as they
// did. `octop --replay FILE` and `octop --demo` both play through it.
//
// The Player sends what the live stream sent (wire.Envelope,
// wire.ConnState, wire.ResyncNeeded, wire.DecodeError) through a send
// func, and answers the screen's snapshot and health reads from the
// recorded replies: a snapshot read waits for the next recorded snapshot,
// as the live read waited for the server, so the events that came while
// it was out are applied over it just as they were live.
//
// Screen wraps the ui's root model with the replay's keys (space pauses,
// + and - change the speed); the root, in Demo mode, reads what the
// recording has shown and answers the keys that would change anything
// with "replay: read-only" ("demo: read-only" in the demo).
//
// A recording of several servers plays as a Group: a Player per server,
// all from the recording's first moment, so each server's entries come
// when they came relative to the others', and the keys drive them all.
package replay
