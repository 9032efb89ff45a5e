package main

import (
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/ui"
)

// The screen's reserved keys (n N r R x X o y) run the same actions as the
// subcommands, through ui.ActionHandler.
func init() {
	newActions = func(c *client.Client) ui.Actions { return ui.NewActionHandler(c) }
}
