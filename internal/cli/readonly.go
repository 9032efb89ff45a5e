package cli

import (
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/ui"
)

// readOnlyNotice is what the screen's keys that would change a read-only
// server answer with.
const readOnlyNotice = "read-only: octop changes nothing on this server"

// screenOn is o for a screen of c, recorded through rec: its Server, and,
// when c is read-only (--read-only, or read_only in the config file), the
// notice its keys answer with, every launch, resume, abort and answer then
// refused at once (task.ReadOnly), before the client (which would refuse
// it too) is asked.
func screenOn(c *client.Client, rec *recorder, o ui.Options) ui.Options {
	s := task.Server(live.New(c))
	if c.ReadOnly() {
		s, o.ReadOnly = task.ReadOnly(s, readOnlyNotice), readOnlyNotice
	}
	o.Server = rec.server(s)
	// A recording keeps a screen's reads for its replay to make again,
	// so a recorded screen reads as a replay does: at start, and on
	// every connect.
	o.WaitForStream = rec == nil
	return o
}
