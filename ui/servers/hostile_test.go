package servers

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/termtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/inflight"
)

// TestHostileServersBar: the screen of several servers draws what each
// server sent (its version, its sessions' titles, its connection error)
// and what the config file named it: on the bar, the group lines, the
// group's header and detail, none of it reaches the terminal raw.
func TestHostileServersBar(t *testing.T) {
	p := opencodetest.Payload
	m := twoScreens()
	m = send(m,
		Msg{Server: 0, Msg: wire.ConnState{State: wire.Connected, Attempt: 1}},
		Msg{Server: 0, Msg: inflight.HealthReply{Health: wire.Health{Healthy: true, Version: p + "1.18.33" + p}}},
		Msg{Server: 0, Msg: created("ses_a1", p+"fix the parser"+p)},
		Msg{Server: 0, Msg: child("ses_a2", "ses_a1", p+"write the tests (@general subagent)"+p)},
		Msg{Server: 0, Msg: busy("ses_a1")},
		Msg{Server: 1, Msg: wire.ConnState{State: wire.Connected, Attempt: 1}},
		Msg{Server: 1, Msg: inflight.HealthReply{Health: wire.Health{Healthy: true, Version: p + "1.1.65"}}},
		Msg{Server: 1, Msg: created("ses_b1", p+"deploy"+p)},
		Msg{Server: 1, Msg: wire.ConnState{State: wire.Disconnected, Err: errors.New("lost: " + p), Attempt: 2,
			RetryAt: now.Add(time.Minute)}},
	)
	check := func(where string) {
		t.Helper()
		v := m.View()
		if bad := termtest.Screen(v.Content); bad != "" {
			t.Errorf("%s: the screen holds %s", where, bad)
		}
		if !strings.Contains(termtest.StripSGR(v.Content), termtest.Mark) {
			t.Errorf("%s: the hostile text is not on the screen, so nothing was checked:\n%s", where, v.Content)
		}
	}
	check("the first screen")
	for _, keys := range [][]string{{"g"}, {"j"}, {"j"}, {"]"}, {"j"}, {"["}, {"1"}, {"2"}} {
		m = press(m, keys...)
		check("after " + strings.Join(keys, " "))
	}
}

// TestHostileServerURL: a server URL from the config file or --server
// is drawn cleaned on the bar and the group lines.
func TestHostileServerURL(t *testing.T) {
	m := twoScreens()
	m.screens[1] = screen("http://box:4097/" + opencodetest.Payload)
	m = send(m, Msg{Server: 1, Msg: created("ses_b1", "deploy")})
	for _, keys := range [][]string{{"g"}, {"]"}} {
		m = press(m, keys...)
		if bad := termtest.Screen(m.View().Content); bad != "" {
			t.Errorf("after %v: the screen holds %s", keys, bad)
		}
	}
}
