// Package client speaks HTTP and SSE to one OpenCode server: typed REST
// calls (sessions, status, messages, permission and question requests,
// control) and Stream, the event stream, which reconnects by itself and
// asks for a REST resync after every connect.
//
// # The stream octop reads, and why not the v2 one
//
// Stream reads /event (/global/event with Options.Global), the v1 stream
// every release serves: server.heartbeat every 10 s on 1.18, and no
// replay. Events missed while disconnected are gone, so every connect
// hands on wire.ResyncNeeded and the caller reads the sessions again over
// REST (live's Snapshot).
//
// OpenCode 1.18.33 and 1.18.34 also serve a v2 API under /api/, with or
// without OPENCODE_EXPERIMENTAL_EVENT_SYSTEM (the flag changed nothing
// that could be seen). What real servers did (issue 21's probes):
//
//   - GET /api/event is SSE with data lines only: {id, type, durable:
//     {aggregateID, seq, version}, location: {directory}, data}, the first
//     event server.connected, a heartbeat comment every 15 s. It cannot be
//     resumed (after, since, seq, cursor and Last-Event-ID are ignored),
//     and it closes itself, cleanly, at the first session.status or
//     session.idle of a classic session. Every session the task tool
//     makes is classic, so it cannot follow a task tree at all.
//   - GET /api/session/{id}/event?after=SEQ and /api/session/{id}/history
//     ?after=SEQ&limit=N (N at most 100) replay one session's durable
//     events from a seq, with no gap or repeat, also across a restart. But
//     only for sessions the new engine runs (created and prompted through
//     /api/session), which has no task tool, hence no subagents; for a
//     classic session both are empty.
//   - What holds: seq counts per session (the aggregate) and history
//     starts at 1 (session.created is 0); version is the event type's
//     schema version, not the stream's; durable event types are
//     session.next.* (prompted, step.started and step.ended, tool.called,
//     tool.success and tool.failed, text.*, reasoning.*, …); GET
//     /api/session lists classic sessions too, with their parentID; basic
//     auth and ?auth_token= work as on v1. What does not: there is no
//     event for a run's start or end, /api/session/active shows new-engine
//     sessions only, and an unknown /api/ path answers 200 with the web
//     UI's HTML (check the Content-Type).
//
// So resuming from the last seq instead of reading every session again
// is not possible for the sessions octop shows on 1.18, and the stream
// stays /event plus the REST resync. OpenCode 2.0 makes the event system
// the default, names its durable events session.execution.*,
// session.step.* and session.tool.*, and announces its per-user server in
// a service.json file (package discover reads it).
package client
