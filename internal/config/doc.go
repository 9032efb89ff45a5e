// Package config reads octop's config file, what a user sets once:
// $XDG_CONFIG_HOME/octop/config.toml (~/.config/octop/config.toml when
// XDG_CONFIG_HOME is unset; OCTOP_CONFIG names another file).
//
//	[[server]]
//	name = "work"
//	url = "http://127.0.0.1:4096"
//	username = "opencode"
//	password_env = "OPENCODE_WORK_PASSWORD"    # or:
//	# password_command = "pass show opencode/work"
//	read_only = true    # watch only: launch, resume, abort and answers are refused
//
//	[watchdog]
//	loop = 5
//	stall = "3m"
//	budget_tokens = 200000
//	budget_cost = "2.50"
//	errors = 5
//	abort_on = ["loop", "budget"]
//
//	[notify]
//	notify = "bell"
//	exec = "notify-send octop \"$OCTOP_EVENT\""
//	exec_timeout = "10s"
//
// A password is never written in the file: it comes from an environment
// variable or a command's output, read only when the server is used.
// The watchdog and notify settings are the defaults of the flags of the
// same names (FlagDefaults), so a flag given on the command line wins.
package config
