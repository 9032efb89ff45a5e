package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/config"
	"github.com/octop-dev/octop/internal/discover"
)

// applyConfig makes the config file's settings the values of fs's flags
// of the same names (loop, stall, …, notify, exec) that were not given on
// the command line, which still wins. fs is parsed; the flags set here are
// not marked as given.
func applyConfig(fs *pflag.FlagSet, cfg config.File) error {
	for name, v := range cfg.FlagDefaults() {
		f := fs.Lookup(name)
		if f == nil || f.Changed {
			continue // not a setting of this command, or given
		}
		if err := f.Value.Set(v); err != nil {
			return fmt.Errorf("%s: %s = %q: %v", cfg.Path, name, v, err)
		}
	}
	return nil
}

// passwordWait bounds reading a password (a password_command).
const passwordWait = 15 * time.Second

// confServer picks the config file's server the connection starts from:
// the one --server names, else the first when neither --server nor
// OPENCODE_SERVER_URL says otherwise. ok is false when none applies.
func (f connFlags) confServer() (config.Server, bool) {
	if f.server != "" {
		return f.cfg.Server(f.server)
	}
	if os.Getenv("OPENCODE_SERVER_URL") != "" || len(f.cfg.Servers) == 0 {
		return config.Server{}, false
	}
	return f.cfg.Servers[0], true
}

// resolve is the connection: the config file's server, then base (the
// environment's settings, client.OptionsFromEnv), then the flags, each
// over the one before. The file fills only what base leaves at its
// default. --server may name a server of the config file. When nothing
// names a server, OpenCode 2.0's service.json does, if there is one.
func (f connFlags) resolve(base client.Options) (client.Options, error) {
	return f.resolveCtx(context.Background(), base)
}

// resolveCtx is resolve, with ctx bounding a password_command as well as
// passwordWait does.
func (f connFlags) resolveCtx(ctx context.Context, base client.Options) (client.Options, error) {
	s, fromFile := f.confServer()
	if !fromFile && f.server == "" && base.BaseURL == client.DefaultURL && os.Getenv("OPENCODE_SERVER_URL") == "" {
		l, ok, err := discover.ReadLocal(discover.ServiceFile(os.Getenv))
		if err != nil {
			return base, err
		}
		if ok {
			base = localOptions(base, l)
		}
	}
	if fromFile && (f.server != "" || base.BaseURL == client.DefaultURL) {
		base.BaseURL = s.URL
		if base.Username == "" && s.Username != "" {
			base.Username = s.Username
		}
		base.Name = s.Name
		base.ReadOnly = base.ReadOnly || s.ReadOnly
		if base.Password == "" {
			ctx, cancel := context.WithTimeout(ctx, passwordWait)
			defer cancel()
			pw, err := s.Password(ctx)
			if err != nil {
				return base, err
			}
			base.Password, base.PasswordFrom = pw, s.PasswordFrom(f.cfg.Path)
		}
		if f.server == s.Name {
			f.server = "" // a name, already resolved
		}
	}
	return f.options(base), nil
}

// localOptions is the connection to OpenCode 2.0's own service, over
// base: its URL and its password (the only one it takes).
func localOptions(base client.Options, l discover.Local) client.Options {
	base.BaseURL = l.URL
	if l.Password != "" {
		base.Password = l.Password
	}
	return base
}
