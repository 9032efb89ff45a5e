package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/alert"
	"github.com/octop-dev/octop/internal/config"
	"github.com/octop-dev/octop/internal/discover"
)

const configHelp = `
Print the settings octop would use: the config file it read, the server
and how it signs in (passwords masked: only where they come from), the
config file's servers, and the watchdog, notify and history settings,
each marked (default), (config file) or (--FLAG). Notify gives both its
defaults: the screen's and octop watch's. Flags given here override the
file, as they do for every command, so this shows what they would change.

The file is $XDG_CONFIG_HOME/octop/config.toml (~/.config/octop/...), or
the file OCTOP_CONFIG names. README.md shows every setting. When neither
a flag, OPENCODE_SERVER_URL nor the config file names a server, OpenCode
2.0's $XDG_STATE_HOME/opencode/service.json (~/.local/state/...) does,
with its password.

Examples:
  octop config
  octop config --server work --loop 8`

// The defaults of --notify: the screen calls the terminal for everything
// notable; octop watch, whose stdout is for scripts, calls it for nothing
// unless asked. `octop config` prints both.
const (
	screenNotify = "all"
	watchNotify  = "none"
)

func (a *app) newConfig() *cobra.Command {
	var wd watchdogFlags
	var notify string
	var hist historyFlags
	return a.newSubcommand(subcommand{
		use:     "config",
		summary: "print the settings in effect (config file, flags, environment), secrets masked",
		help:    configHelp,
		flags: func(fs *pflag.FlagSet) {
			wd.register(fs)
			fs.StringVar(&notify, "notify", "", "call the terminal as the screen and octop watch would with --notify: MODE none, bell, osc or all "+
				"(default: the screen's "+screenNotify+", octop watch's "+watchNotify+")")
			hist.register(fs)
		},
		run: func(_ context.Context, cmd *command, _ client.Options, pos []string) int {
			if _, err := hist.policy(); err != nil {
				return cmd.usageError(err.Error())
			}
			return runConfig(cmd, pos, wd, notify)
		},
	})
}

func runConfig(cmd *command, pos []string, wd watchdogFlags, notify string) int {
	stdio := cmd.stdio
	if len(pos) > 0 {
		return cmd.usageError("unexpected argument " + pos[0])
	}
	if _, err := wd.config(); err != nil {
		return cmd.usageError(err.Error())
	}
	if notify != "" {
		if _, err := alert.ParseMode(notify); err != nil {
			return cmd.usageError(err.Error())
		}
	}
	w := stdio.out
	printConn(w, cmd.conn)
	printServers(w, cmd.conn.cfg)
	set := func(names ...string) {
		for _, n := range names {
			fmt.Fprintf(w, "  %-14s %s (%s)\n", n, shown(cmd.fs.Lookup(n)), settingFrom(cmd.fs, cmd.conn.cfg, n))
		}
	}
	fmt.Fprintln(w, "watchdog:")
	set("loop", "stall", "budget-tokens", "budget-cost", "errors", "abort-on")
	fmt.Fprintln(w, "notify:")
	screen, watch, from := screenNotify, watchNotify, settingFrom(cmd.fs, cmd.conn.cfg, "notify")
	if from != "default" {
		screen, watch = notify, notify
	}
	fmt.Fprintf(w, "  %-14s %s (%s)\n", "screen", screen, from)
	fmt.Fprintf(w, "  %-14s %s (%s)\n", "octop watch", watch, from)
	set("exec", "exec-timeout")
	fmt.Fprintln(w, "history:")
	set("lazy-after", "history-window", "history-rate")
	return codeOK
}

// settingFrom says where a setting's value comes from: "--NAME" when the
// flag is given, "config file" when the file sets it, else "default".
func settingFrom(fs *pflag.FlagSet, cfg config.File, name string) string {
	if f := fs.Lookup(name); f != nil && f.Changed {
		return "--" + name
	}
	if _, ok := cfg.FlagDefaults()[name]; ok {
		return "config file"
	}
	return "default"
}

// shown is a flag's value, or "-" when empty.
func shown(f *pflag.Flag) string {
	if v := f.Value.String(); v != "" {
		return v
	}
	return "-"
}

// printConn says where octop connects and how it signs in, with the
// source of each setting and never a password.
func printConn(w io.Writer, f connFlags) {
	path := config.DefaultPath()
	switch {
	case f.cfg.Path != "":
		fmt.Fprintf(w, "config file    %s\n", f.cfg.Path)
	default:
		fmt.Fprintf(w, "config file    none (%s does not exist)\n", path)
	}
	url, urlFrom := client.DefaultURL, "default"
	user, userFrom := client.DefaultUsername, "default"
	pw := "(none)"
	localPW := false // service.json's password, which wins over the environment's
	readOnly := "no"
	if s, ok := f.confServer(); ok {
		url, urlFrom = s.URL, fmt.Sprintf("config file, server %q", s.Name)
		if s.Username != "" {
			user, userFrom = s.Username, urlFrom
		}
		pw = s.PasswordSource()
		if s.ReadOnly {
			readOnly = "yes (" + urlFrom + ")"
		}
	} else if path := discover.ServiceFile(os.Getenv); f.server == "" && os.Getenv("OPENCODE_SERVER_URL") == "" {
		if l, ok, err := discover.ReadLocal(path); err == nil && ok {
			url, urlFrom = l.URL, "OpenCode's "+path
			if l.Password != "" {
				pw, localPW = "******** (from "+path+")", true
			}
		}
	}
	if f.readOnly {
		readOnly = "yes (--read-only)"
	}
	for _, e := range []struct {
		env       string
		val, from *string
		secret    bool
	}{
		{"OPENCODE_SERVER_URL", &url, &urlFrom, false},
		{"OPENCODE_SERVER_USERNAME", &user, &userFrom, false},
	} {
		if v := os.Getenv(e.env); v != "" {
			*e.val, *e.from = v, "$"+e.env
		}
	}
	if os.Getenv("OPENCODE_SERVER_PASSWORD") != "" && !localPW {
		pw = "******** (from $OPENCODE_SERVER_PASSWORD)"
	}
	if _, named := f.cfg.Server(f.server); f.server != "" && !named {
		url, urlFrom = f.server, "--server"
	}
	if f.username != "" {
		user, userFrom = f.username, "--username"
	}
	if f.password != "" {
		pw = "******** (from --password)"
	}
	if u, p, ok := urlLogin(url); ok {
		user, userFrom = u, "the server URL"
		if p {
			pw = "******** (from the server URL)"
		}
	}
	fmt.Fprintf(w, "server         %s (%s)\n", redactURL(url), urlFrom)
	fmt.Fprintf(w, "username       %s (%s)\n", user, userFrom)
	fmt.Fprintf(w, "password       %s\n", pw)
	fmt.Fprintf(w, "read-only      %s\n", readOnly)
	if f.directory != "" {
		fmt.Fprintf(w, "directory      %s\n", f.directory)
	}
}

// printServers lists the config file's servers.
func printServers(w io.Writer, cfg config.File) {
	if len(cfg.Servers) == 0 {
		return
	}
	fmt.Fprintln(w, "servers in the config file:")
	for _, s := range cfg.Servers {
		name := s.Name
		if name == "" {
			name = "(no name)"
		}
		user := ""
		if s.Username != "" {
			user = "  user " + s.Username
		}
		if s.ReadOnly {
			user += "  read-only"
		}
		pw := s.PasswordSource()
		if _, p, _ := urlLogin(s.URL); p {
			pw = "******** (in its URL)"
		}
		fmt.Fprintf(w, "  %-10s %s%s  password %s\n", name, redactURL(s.URL), user, strings.TrimSpace(pw))
	}
}

// urlLogin is the login a server URL carries (http://user:pass@host),
// which client.New signs in with over every other setting: the user (the
// default one when it names none) and whether it gives a password. ok is
// false when the URL carries none.
func urlLogin(raw string) (user string, pass, ok bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.User == nil {
		return "", false, false
	}
	_, pass = u.User.Password()
	return cmp.Or(u.User.Username(), client.DefaultUsername), pass, true
}

// redactURL hides a password written into a URL, with or without a
// scheme (client.Redact).
func redactURL(s string) string { return client.Redact(s) }
