package client

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestRecordingRoundTrip(t *testing.T) {
	big := strings.Repeat("x", 6<<20)
	events := []Recorded{
		{MS: 0, Data: json.RawMessage(`{"id":"evt_1","type":"server.connected","properties":{}}`)},
		{MS: 1500, Data: json.RawMessage(`{"type":"session.idle","properties":{"sessionID":"ses_1"}}`)},
		{MS: 2000, Data: json.RawMessage(`{"type":"message.part.delta","properties":{"delta":"` + big + `"}}`)},
	}
	var buf bytes.Buffer
	for _, e := range events {
		if err := WriteRecorded(&buf, e); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(buf.String(), "\n"); n != len(events) {
		t.Fatalf("%d lines, want one per event", n)
	}
	got, err := ReadRecording(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(events) {
		t.Fatalf("read %d events, want %d", len(got), len(events))
	}
	for i := range events {
		if got[i].MS != events[i].MS || !bytes.Equal(got[i].Data, events[i].Data) {
			t.Errorf("event %d: got %d %.80s", i, got[i].MS, got[i].Data)
		}
	}
	env, err := got[1].Decode()
	if err != nil {
		t.Fatal(err)
	}
	if idle, ok := env.Event.(SessionIdle); !ok || idle.SessionID != "ses_1" {
		t.Errorf("decoded %#v", env.Event)
	}
}

func TestReadRecordingErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{\"ms\":1,\"data\":{}}\nnot json\n", "line 2"},
		{"{\"ms\":1,\"data\":\"str\"}\n", "line 1: \"data\" is not a JSON object"},
		{"{\"ms\":1,\"data\":{\"x\":\"" + strings.Repeat("y", MaxRecordedLine) + "\"}}\n", "longer than"},
	} {
		_, err := ReadRecording(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadRecording(%.30q…) error %v, want it to contain %q", tc.in, err, tc.want)
		}
	}
	if err := WriteRecorded(&bytes.Buffer{}, Recorded{Data: json.RawMessage("{")}); err == nil {
		t.Error("WriteRecorded accepted broken JSON")
	}
}
