package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/wire"
)

// serverFlag is --server: given more than once, or as a comma-separated
// list, it names several servers.
type serverFlag struct{ f *connFlags }

func (s serverFlag) String() string {
	if s.f == nil {
		return ""
	}
	return s.f.server
}

// Type is what pflag calls the value's kind, for help and completion.
func (serverFlag) Type() string { return "string" }

func (s serverFlag) Set(v string) error {
	s.f.servers = append(s.f.servers, splitServers(v)...)
	if len(s.f.servers) > 0 {
		s.f.server = s.f.servers[0]
	}
	return nil
}

// splitServers splits a comma-separated list of server URLs or names.
func splitServers(v string) []string {
	var out []string
	for _, one := range strings.Split(v, ",") {
		if one = strings.TrimSpace(one); one != "" {
			out = append(out, one)
		}
	}
	return out
}

// serverNames is every server named: the --server flags, else the
// comma-separated OPENCODE_SERVER_URL. Repeats count once.
func (f connFlags) serverNames() []string {
	names := f.servers
	if len(names) == 0 {
		names = splitServers(os.Getenv("OPENCODE_SERVER_URL"))
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// resolveAll is the connection to each server named, as resolve makes
// it for one. With several, --password and OPENCODE_SERVER_PASSWORD are
// the first server's (the default's) only: a password is never sent to
// a server it was not given for. The others sign in with their URL's
// user:pass or their config file entry.
func (f connFlags) resolveAll(base client.Options) ([]client.Options, error) {
	return f.resolveAllCtx(context.Background(), base)
}

// resolveAllCtx is resolveAll, with ctx bounding the password_commands.
func (f connFlags) resolveAllCtx(ctx context.Context, base client.Options) ([]client.Options, error) {
	names := f.serverNames()
	if len(names) <= 1 {
		if len(names) == 1 {
			f.server = names[0]
		}
		o, err := f.resolveCtx(ctx, base)
		return []client.Options{o}, err
	}
	out := make([]client.Options, 0, len(names))
	for i, n := range names {
		g, b := f, base
		g.server, b.BaseURL = n, n
		if i > 0 {
			g.password, b.Password = "", ""
			b.PasswordFrom = "its URL (http://opencode:PASSWORD@host) or a [[server]] entry of the config file " +
				"(--password and OPENCODE_SERVER_PASSWORD are the first server's only)"
		}
		o, err := g.resolveCtx(ctx, b)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// newClients builds one client per server named.
func (c *command) newClients(base client.Options) ([]*client.Client, int, bool) {
	opts, err := c.conn.resolveAll(base)
	if err != nil {
		return nil, c.fail(err), false
	}
	cs := make([]*client.Client, 0, len(opts))
	var mu sync.Mutex // the histories are read a few at a time
	for _, o := range opts {
		if o.Undecodable == nil {
			// What the server sent but octop cannot decode is left out
			// (or marked), and said, one line each; the rest is printed.
			prefix := "octop " + c.name + ": "
			if len(opts) > 1 {
				prefix += client.Redact(o.BaseURL) + ": "
			}
			o.Undecodable = func(u wire.Undecodable) {
				mu.Lock()
				defer mu.Unlock()
				fmt.Fprintln(c.stdio.err, prefix+u.Error())
			}
		}
		cl, err := client.New(o)
		if err != nil {
			return nil, c.usageError(err.Error()), false
		}
		cs = append(cs, cl)
	}
	return cs, 0, true
}

// clientFor is the client of the server that holds session id: with one
// server, that one (asked nothing yet); with several, the one that
// answers for id (see live.Owner).
func (c *command) clientFor(ctx context.Context, base client.Options, id string) (*client.Client, int, bool) {
	cs, code, ok := c.newClients(base)
	if !ok {
		return nil, code, false
	}
	i, err := live.Owner(ctx, cs, id)
	if err != nil {
		return nil, c.fail(err), false
	}
	return cs[i], 0, true
}
