// Package record writes, reads and plays octop recordings: everything a
// screen received from its servers, so that `octop --replay FILE` (and
// `octop --demo`, the embedded recording) can show it again exactly as
// it was seen.
//
// A recording is gzip-compressed NDJSON (plain NDJSON reads too). The
// first line is a header; every other line is one Entry: what arrived,
// when (Unix milliseconds), and from which server.
//
//	{"kind":"header","format":"octop-recording/1","at":1795286989756,"octop":"v0.3.0"}
//	{"kind":"snapshot","at":…,"server":"http://127.0.0.1:4096","read":1,"data":{…model.Snapshot…}}
//	{"kind":"snapshot_failed","at":…,"server":"…","read":2,"data":{"error":"…"}}
//	{"kind":"event","at":…,"server":"…","data":{…the event's SSE data, as sent…}}
//	{"kind":"conn","at":…,"server":"…","data":{"state":"connected","attempt":1}}
//	{"kind":"resync","at":…,"server":"…"}
//	{"kind":"health","at":…,"server":"…","data":{"healthy":true,"version":"1.18.33"}}
//	{"kind":"history","at":…,"server":"…","data":{"id":"ses_…","messages":[…]}}
//	{"kind":"server","at":…,"server":"…"}
//
// A recording of several servers (--record with several --server) holds
// every server's entries, interleaved as they came; a "server" line
// announces each, in the order the screen shows them.
//
// The Writer flushes the gzip stream at least once a second, so a crash
// loses at most the last second. Read takes what a crash leaves (a gzip
// stream without its end, a last line cut short) and returns everything
// before the cut; anything else wrong is an error naming the line.
//
// A snapshot carries the number of the screen's read it answered (1 the
// first), and a read that failed is recorded as failed, so the replay's
// nth read gets exactly what the live one got, whatever order the
// answers came in.
//
// Tap sits between a client and the screen and writes as things pass:
// the stream's raw events and connection changes, and each snapshot,
// health reply and session history the screen reads.
//
// # Playing
//
// A Player plays a recording back to the screen as it was received: the same events, connection changes and snapshot
// replies, at the pace they came (or faster, slower, paused), with a
// clock that runs on the recording's time so elapsed times read as they
// did. Both --replay and --demo play
// through it.
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
//
// ReadOnly is the task.Server of a recording: the screen's reads are
// answered from it, and every other request (each that would change a
// server among them) answers "replay: read-only" (task.ErrReadOnly).
package record
