package watchdog

import (
	"slices"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestLateWordOfTheBaselineIsNotNews: what the server says late of
// sessions that ended before the first look (a single-step run's tokens
// in the session.updated after session.idle, an error, a reply) changes
// what their unread runs seem to be, and is no news, for the screen (which
// reads their histories after) and for octop watch (which does not); a
// run after that is.
func TestLateWordOfTheBaselineIsNotNews(t *testing.T) {
	for _, awaits := range []bool{true, false} {
		st, w := model.New(), New(Config{})
		if awaits {
			w.AwaitHistory()
		}
		st.ApplySnapshot(snapshot("ses_one", "ses_err", "ses_msg"))
		got := names(w.Resync(st, 1000))
		for _, ev := range []wire.Event{
			wire.SessionUpdated{Info: wire.Session{ID: "ses_one", Title: "task ses_one", Tokens: wire.Tokens{Input: 50},
				Time: wire.SessionTime{Created: 1, Updated: 36}}},
			sessErr("ses_err", "APIError"),
			wire.MessageUpdated{Info: wire.Message{ID: "msg_0002", SessionID: "ses_msg", Role: "assistant",
				Time: wire.MessageTime{Created: 3, Completed: 8}}},
		} {
			st.Apply(ev)
			got = append(got, names(w.Events(st, []wire.Event{ev}, 2000))...)
		}
		if awaits {
			st.ApplyMessages(map[string][]wire.MessageWithParts{"ses_one": history("ses_one", 5, 0, "done"),
				"ses_err": history("ses_err", 5, 0, "failed"), "ses_msg": history("ses_msg", 2, 0, "done")})
			got = append(got, names(w.Learn(st, []string{"ses_err", "ses_msg", "ses_one"}, 3000))...)
		}
		prompt := wire.MessageUpdated{Info: wire.Message{ID: "msg_0040", SessionID: "ses_one", Role: "user", Time: wire.MessageTime{Created: 40}}}
		for _, ev := range []wire.Event{prompt, busy("ses_one"), msg("ses_one", 41, true), idle("ses_one")} {
			st.Apply(ev)
			got = append(got, names(w.Events(st, []wire.Event{ev}, 4000))...)
		}
		if want := []string{"session.started ses_one", "session.done ses_one"}; !slices.Equal(got, want) {
			t.Errorf("histories read: %v: got %q\nwant %q", awaits, got, want)
		}
	}
}

// TestReadAgainAfterAnOutageTellsItsRun: a session of the baseline, read,
// that runs and fails while the stream is down is announced once its
// history is read again: the snapshot after the outage says it changed,
// which makes it unread, and what its messages show is a run since the
// last look that read them. Those that only changed (a late summary) are
// not, neither by the snapshot's guess (a denied run's reads "done")
// nor by their histories.
func TestReadAgainAfterAnOutageTellsItsRun(t *testing.T) {
	st, w := model.New(), New(Config{})
	w.AwaitHistory()
	ids := []string{"ses_ran", "ses_still", "ses_denied"}
	st.ApplySnapshot(snapshot(ids...))
	w.Resync(st, 1000)
	old := map[string][]wire.MessageWithParts{"ses_ran": history("ses_ran", 10, 1, "done"),
		"ses_still": history("ses_still", 10, 1, "done"), "ses_denied": history("ses_denied", 10, 1, "denied")}
	st.ApplyMessages(old)
	got := names(w.Learn(st, ids, 1500))
	away := snapshot(ids...)
	for i := range away.Sessions {
		away.Sessions[i].Time.Updated = 50
	}
	st.ApplySnapshot(away)
	got = append(got, names(w.Resync(st, 3000))...)
	old["ses_ran"] = append(history("ses_ran", 10, 1, "done"), history("ses_ran", 40, 1, "failed")...)
	st.ApplyMessages(old)
	got = append(got, names(w.Learn(st, ids, 4000))...)
	if want := []string{"session.started ses_ran", "session.failed ses_ran"}; !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestUnreadBaselineRunWhileAway: octop watch reads no history at its
// baseline. A session of it that runs and fails while the stream is down
// is announced once read after the reconnect: its run is newer than the
// latest its last run could have started when last looked at (its
// listing's updated time). One the server only touched (a late summary)
// is not, nor a run the stream already told, nor anything twice.
func TestUnreadBaselineRunWhileAway(t *testing.T) {
	st, w := model.New(), New(Config{})
	ids := []string{"ses_ran", "ses_touched", "ses_seen"}
	st.ApplySnapshot(snapshot(ids...))
	got := names(w.Resync(st, 1000))
	// Watched: ses_seen runs, its prompt before the server touches it.
	prompt := wire.MessageUpdated{Info: wire.Message{ID: "msg_0040", SessionID: "ses_seen", Role: "user", Time: wire.MessageTime{Created: 40}}}
	for _, ev := range []wire.Event{prompt, busy("ses_seen"), msg("ses_seen", 41, true), idle("ses_seen")} {
		st.Apply(ev)
		got = append(got, names(w.Events(st, []wire.Event{ev}, 2000))...)
	}
	away := snapshot(ids...)
	for i, at := range []int64{60, 50, 45} {
		away.Sessions[i].Time.Updated = at
	}
	away.Messages = map[string][]wire.MessageWithParts{
		"ses_ran":     append(history("ses_ran", 10, 0, "done"), history("ses_ran", 50, 0, "failed")...),
		"ses_touched": history("ses_touched", 10, 0, "done"),
		"ses_seen":    append(history("ses_seen", 10, 0, "done"), history("ses_seen", 40, 0, "done")...),
	}
	for range 2 {
		st.ApplySnapshot(away)
		got = append(got, names(w.Resync(st, 3000))...)
	}
	want := []string{"session.started ses_seen", "session.done ses_seen", "session.started ses_ran", "session.failed ses_ran"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
