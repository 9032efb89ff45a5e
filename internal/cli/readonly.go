package cli

import (
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
)

// readOnlyNotice is what the screen's keys that would change a read-only
// server answer with.
const readOnlyNotice = "read-only: octop changes nothing on this server"

// screenServer is what a screen of c works through, and the notice its
// keys answer with when c is read-only (--read-only, or read_only in the
// config file): then every launch, resume, abort and answer is refused
// at once, before the client (which would refuse it too) is asked.
func screenServer(c *client.Client) (task.Server, string) {
	s := task.Server(live.New(c))
	if !c.ReadOnly() {
		return s, ""
	}
	return task.ReadOnly(s, readOnlyNotice), readOnlyNotice
}
