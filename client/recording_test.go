package client

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

func TestRecordingRoundTrip(t *testing.T) {
	in := []Recorded{
		{MS: 0, Data: json.RawMessage(`{"id":"evt_1","type":"server.connected","properties":{}}`)},
		{MS: 1234, Data: json.RawMessage("{\n  \"type\": \"session.idle\",\n  \"properties\": {\"sessionID\": \"ses_a\"}\n}")},
	}
	var buf bytes.Buffer
	for _, r := range in {
		if err := WriteRecorded(&buf, r); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Fatalf("%d lines written, want 2 (data must be compacted):\n%s", n, buf.String())
	}
	out, err := ReadRecording(strings.NewReader("\n" + buf.String() + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[1].MS != 1234 {
		t.Fatalf("read %+v", out)
	}
	env, err := out[1].Decode()
	if err != nil || env.Event != (wire.SessionIdle{SessionID: "ses_a"}) {
		t.Errorf("decoded %+v, %v", env, err)
	}
}

func TestRecordingErrors(t *testing.T) {
	if err := WriteRecorded(&bytes.Buffer{}, Recorded{MS: 7, Data: json.RawMessage(`{oops`)}); err == nil || !strings.Contains(err.Error(), "at 7 ms") {
		t.Errorf("WriteRecorded of bad JSON: %v", err)
	}
	_, err := ReadRecording(strings.NewReader(`{"ms":1,"data":{"type":"x"}}` + "\n" + `{"ms":2,"data":"str"}` + "\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad data line: %v", err)
	}
	_, err = ReadRecording(strings.NewReader(`{"ms":1,"data":{}}` + "\nnot json\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad line: %v", err)
	}
}

func TestReadRESTView(t *testing.T) {
	v, err := ReadRESTView(strings.NewReader(`{"sessions":[{"id":"ses_a","title":"t"}],"status":{"ses_a":{"type":"busy"}},"messages":{"ses_a":[]}}`))
	if err != nil || len(v.Sessions) != 1 || v.Status["ses_a"].Type != wire.StatusBusy || v.Messages["ses_a"] == nil {
		t.Errorf("got %+v, %v", v, err)
	}
	if _, err := ReadRESTView(strings.NewReader(`<html>`)); err == nil {
		t.Error("accepted HTML")
	}
}
