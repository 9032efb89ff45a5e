package wire

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeEvent: DecodeEvent takes whatever bytes the server sends. It
// must not panic; an event it accepts has a type, is Unknown exactly when
// the type is not one octop acts on, decodes the same way twice, and as
// encoding/json would when that accepts it (Unmarshal's fast path). Its
// seeds (testdata/fuzz/FuzzDecodeEvent) are one event of each type from
// the reference captures, plus broken and wrapped ones.
func FuzzDecodeEvent(f *testing.F) {
	f.Add([]byte(`{"type":"session.idle","properties":{"sessionID":"ses_a"}}`))
	f.Add([]byte(`{"directory":"/p","payload":{"type":"session.status","properties":{"sessionID":"ses_a","status":{"type":"busy"}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		env, err := DecodeEvent(data)
		if std, errStd := decodeEvent(data, json.Unmarshal); errStd == nil && (err != nil || !sameJSON(env, std)) {
			t.Fatalf("encoding/json reads %q as %#v, DecodeEvent as %#v (%v)", data, std, env, err)
		}
		if err != nil {
			if env.Event != nil {
				t.Fatalf("an error (%v) came with an event %#v", err, env.Event)
			}
			return
		}
		if env.Event == nil || env.Event.EventType() == "" {
			t.Fatalf("accepted %q as an event with no type: %#v", data, env)
		}
		if _, unknown := env.Event.(Unknown); unknown == knownType(env.Event.EventType()) {
			t.Fatalf("type %q: Unknown is %v, known is %v", env.Event.EventType(), unknown, knownType(env.Event.EventType()))
		}
		again, err := DecodeEvent(data)
		if err != nil || !sameJSON(again, env) {
			t.Fatalf("decoding twice differs: %#v then %#v (%v)", env, again, err)
		}
	})
}

// sameJSON compares two envelopes by their JSON form: events hold slices
// and raw JSON, which == cannot compare.
func sameJSON(a, b Envelope) bool {
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && string(ja) == string(jb)
}
