package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// factsStem is the facts recording, made on a real OpenCode 1.18.33 by
//
//	go run ./internal/dev/record -scenario facts -warm -data /tmp/octop-facts -out internal/cli/testdata/facts
//
// (-data names a new directory). It writes three files: the events as
// the server sent them (.jsonl, both streams: the second begins with the
// restarted server's server.connected), the REST view read right after
// the restart (.restart.rest.json) and the one read at the end
// (.rest.json). A new recording needs no change to the test: it finds
// the sessions by their titles and reads the times from the recording.
const factsStem = "testdata/facts/1.18.33-facts"

// factsRecording is the facts recording, read.
type factsRecording struct {
	// live and after are the events of the first stream and of the
	// stream after the restart, each stream's server.connected left out.
	live, after []factsEvent
	// restart and end are the REST views after the restart and at the
	// end.
	restart, end client.RESTView
}

// factsEvent is one recorded event: as sent, and decoded.
type factsEvent struct {
	ms  int64 // since the recording began
	raw json.RawMessage
	env wire.Envelope
}

// loadFacts reads the facts recording.
func loadFacts(t *testing.T) factsRecording {
	t.Helper()
	var f factsRecording
	file, err := os.Open(factsStem + ".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := client.ReadRecording(file)
	file.Close()
	if err != nil {
		t.Fatalf("%s.jsonl: %v", factsStem, err)
	}
	streams := 0
	for _, r := range recs {
		env, err := r.Decode()
		if err != nil {
			t.Fatalf("%s.jsonl at %d ms: %v", factsStem, r.MS, err)
		}
		if _, ok := env.Event.(wire.ServerConnected); ok {
			streams++
			continue
		}
		if streams > 1 {
			f.after = append(f.after, factsEvent{r.MS, r.Data, env})
		} else {
			f.live = append(f.live, factsEvent{r.MS, r.Data, env})
		}
	}
	if streams != 2 {
		t.Fatalf("%s.jsonl holds %d streams, want 2: before and after the restart", factsStem, streams)
	}
	f.restart = readView(t, factsStem+".restart.rest.json")
	f.end = readView(t, factsStem+".rest.json")
	return f
}

func readView(t *testing.T, path string) client.RESTView {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	v, err := client.ReadRESTView(file)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	return v
}

// serve is the one fake server (opencodetest) answering as the recorded
// server did when it showed v: its sessions, statuses and messages.
func (f factsRecording) serve(t *testing.T, v client.RESTView) *opencodetest.Server {
	t.Helper()
	srv := opencodetest.New(t, opencodetest.Options{Directory: f.end.Sessions[0].Directory})
	show(srv, v)
	return srv
}

// show makes srv list what v holds.
func show(srv *opencodetest.Server, v client.RESTView) {
	for _, s := range v.Sessions {
		srv.AddSession(s)
	}
	for id, st := range v.Status {
		srv.SetStatus(id, st)
	}
	for id, msgs := range v.Messages {
		srv.SetMessages(id, msgs)
	}
}

// byTitle finds the session of v whose title starts with prefix.
func byTitle(t *testing.T, v client.RESTView, prefix string) wire.Session {
	t.Helper()
	for _, s := range v.Sessions {
		if strings.HasPrefix(s.Title, prefix) {
			return s
		}
	}
	t.Fatalf("the facts recording has no session titled %q…", prefix)
	return wire.Session{}
}

// startMS is when the recording began on the server's clock: the root's
// creation, less when its event came.
func (f factsRecording) startMS() int64 {
	for _, e := range f.live {
		if c, ok := e.env.Event.(wire.SessionCreated); ok {
			return c.Info.Time.Created - e.ms
		}
	}
	return 0
}

// lastMS is when the recording's last event came, since it began.
func (f factsRecording) lastMS() int64 { return f.after[len(f.after)-1].ms }
