// Package record writes and reads octop recordings: everything a screen
// received from its servers, so that `octop --replay FILE` can show it
// again exactly as it was seen.
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
// health reply and session history the screen reads. It holds no bubbletea and no ui import.
package record
