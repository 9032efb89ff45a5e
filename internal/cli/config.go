package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/config"
)

// applyConfig makes the config file's settings the defaults of fs's flags
// of the same names (loop, stall, …, notify, exec), so a flag given on the
// command line still wins. The flags are not marked as given.
func applyConfig(fs *flag.FlagSet, cfg config.File) error {
	for name, v := range cfg.FlagDefaults() {
		f := fs.Lookup(name)
		if f == nil {
			continue // not a setting of this command
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
// default. --server may name a server of the config file.
func (f connFlags) resolve(base client.Options) (client.Options, error) {
	if s, ok := f.confServer(); ok && (f.server != "" || base.BaseURL == client.DefaultURL) {
		base.BaseURL = s.URL
		if base.Username == "" && s.Username != "" {
			base.Username = s.Username
		}
		base.ReadOnly = base.ReadOnly || s.ReadOnly
		if base.Password == "" {
			ctx, cancel := context.WithTimeout(context.Background(), passwordWait)
			defer cancel()
			pw, err := s.Password(ctx)
			if err != nil {
				return base, err
			}
			base.Password = pw
		}
		if f.server == s.Name {
			f.server = "" // a name, already resolved
		}
	}
	return f.options(base), nil
}
