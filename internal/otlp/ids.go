package otlp

import (
	"crypto/sha256"

	"go.opentelemetry.io/otel/trace"
)

// TraceIDFor is the trace id of a root's fan-out: a hash of the root's
// session id, so exporting the same root again sends the same trace.
func TraceIDFor(root string) trace.TraceID {
	sum := sha256.Sum256([]byte("octop/trace/" + root))
	var id trace.TraceID
	copy(id[:], sum[:16])
	if !id.IsValid() {
		id[15] = 1 // all zeros is no id; a hash lands there practically never
	}
	return id
}

// The kinds of server ids a span stands for (SpanIDFor's kind): the kind
// is hashed in, so a session, a message and a part never share a span id.
const (
	KindSession = "session"
	KindMessage = "message"
	KindPart    = "part"
	KindRun     = "run" // a session's later run (see RunSpanID)
)

// SpanIDFor is the span id of a session, message or part (kind) by its id.
func SpanIDFor(kind, id string) trace.SpanID {
	sum := sha256.Sum256([]byte("octop/span/" + kind + "/" + id))
	var sid trace.SpanID
	copy(sid[:], sum[:8])
	if !sid.IsValid() {
		sid[7] = 1
	}
	return sid
}
