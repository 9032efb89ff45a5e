package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/config"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/model"
)

// Exit codes of the subcommands, fixed so scripts can rely on them.
const (
	codeOK        = 0 // done
	codeFail      = 1 // the server or the request failed
	codeUsage     = 2 // bad usage: a missing flag, a malformed id, an empty prompt, an unknown agent; or refused by --read-only
	codeNoSession = 3 // no such session on the server
	codeTaskError = 4 // result, --wait, log --follow, watch --until-done: the task ended in an error
	codeTimeout   = 5 // --wait --timeout: the time ran out while the task still ran
	codeRefused   = 6 // undo, redo: nothing changed, another session's work was at stake (no --force), or not confirmed
)

// cmdIO is where a subcommand reads and writes; tests pass buffers.
// realMain puts out and err behind sanitize.Writer, the one way the
// command line writes to a terminal: whatever a server sent is shown as
// text there, never acted on. octop's own escape sequences (--notify's)
// go to sanitize.Raw(err).
type cmdIO struct {
	in       io.Reader
	out, err io.Writer
}

// connFlags are the connection flags every subcommand shares. Empty means
// the environment's value (OPENCODE_SERVER_URL, OPENCODE_SERVER_PASSWORD,
// OPENCODE_SERVER_USERNAME) or the default.
type connFlags struct {
	// server is the first --server (or the only one); servers all of
	// them, in order (see servers.go).
	server                        string
	servers                       []string
	password, username, directory string
	// readOnly is --read-only: octop sends nothing that would change a
	// server (read_only in the config file says so of one server).
	readOnly bool
	// cfg is the config file, whose servers --server may name.
	cfg config.File
}

// register adds the connection flags to fs: the root's persistent flags,
// so they may come before or after a subcommand's name. Their defaults
// stay empty so that --help never prints a password taken from the
// environment.
func (f *connFlags) register(fs *pflag.FlagSet) {
	fs.Var(serverFlag{f}, "server", "the OpenCode server URL (http://user:pass@host:port for its own login), or the NAME of a server in the config file; repeat it, or list them with commas, to watch several (env OPENCODE_SERVER_URL, default "+client.DefaultURL+")")
	fs.StringVar(&f.password, "password", "", "the PASSWORD for basic auth (env OPENCODE_SERVER_PASSWORD)")
	fs.StringVar(&f.username, "username", "", "the USER for basic auth (env OPENCODE_SERVER_USERNAME, default "+client.DefaultUsername+")")
	fs.StringVar(&f.directory, "directory", "", "the project DIR on the server (default: the server's own)")
	fs.BoolVar(&f.readOnly, "read-only", false, "change nothing on the server: launch, resume, say, retry, abort and answers are refused, and nothing but reads is sent")
}

// options lays the flags over base (the environment's options).
func (f connFlags) options(base client.Options) client.Options {
	if f.server != "" {
		base.BaseURL = f.server
	}
	if f.password != "" {
		base.Password, base.PasswordFrom = f.password, "--password"
	}
	if f.username != "" {
		base.Username = f.username
	}
	if f.directory != "" {
		base.Directory = f.directory
	}
	base.ReadOnly = base.ReadOnly || f.readOnly
	return base
}

// command is one subcommand being run: its name, where it writes, its
// flags as parsed (its own and the connection flags), and the connection
// they describe.
type command struct {
	name  string
	stdio cmdIO
	fs    *pflag.FlagSet
	conn  connFlags
}

// usageError reports bad usage in one line and returns codeUsage.
func (c *command) usageError(msg string) int {
	fmt.Fprintf(c.stdio.err, "octop %s: %s (see octop %s --help)\n", c.name, msg, c.name)
	return codeUsage
}

// fail reports err in one line and returns the exit code its kind calls for.
func (c *command) fail(err error) int {
	code := codeFail
	switch {
	case errors.Is(err, task.ErrInvalid) || client.ErrorKind(err) == client.KindInvalid,
		errors.Is(err, task.ErrReadOnly) || client.IsReadOnly(err):
		code = codeUsage
	case errors.Is(err, task.ErrNoSession) || client.IsNotFound(err):
		code = codeNoSession
	case errors.Is(err, task.ErrGaveUp):
		code = codeTimeout
	case errors.Is(err, task.ErrOthersWork):
		code = codeRefused
	}
	msg := err.Error()
	if errors.Is(err, context.Canceled) {
		msg = "interrupted"
	}
	fmt.Fprintf(c.stdio.err, "octop %s: %s\n", c.name, squashSpaces(msg))
	return code
}

// newClient builds the client from the flags over the environment and
// the config file. A command that acts on one server refuses several.
func (c *command) newClient(base client.Options) (*client.Client, int, bool) {
	cs, code, ok := c.newClients(base)
	if !ok {
		return nil, code, false
	}
	if len(cs) > 1 {
		return nil, c.usageError(fmt.Sprintf("this works on one server, and %d are given; pick one with --server", len(cs))), false
	}
	return cs[0], 0, true
}

// refuseReadOnly fails a command that would change a server octop must
// not change, before it sends anything; ok is false then.
func (c *command) refuseReadOnly(cl *client.Client) (code int, ok bool) {
	if !cl.ReadOnly() {
		return 0, true
	}
	return c.fail(task.NewError(task.ErrReadOnly, fmt.Sprintf(
		"read-only: octop changes nothing on %s (--read-only, or read_only in the config file); nothing was sent", cl.BaseURL()), nil)), false
}

// onePositional checks that exactly one positional argument (an id) was
// given.
func (c *command) onePositional(pos []string, what string) (string, int, bool) {
	switch len(pos) {
	case 0:
		return "", c.usageError("missing " + what), false
	case 1:
		return pos[0], 0, true
	default:
		return "", c.usageError(fmt.Sprintf("expected one %s, got %d arguments: %s", what, len(pos), strings.Join(pos, " "))), false
	}
}

// readPrompt returns the prompt flag's text; "-" reads it from stdin.
func (c *command) readPrompt(p string) (string, error) {
	if p != "-" {
		return p, nil
	}
	if c.stdio.in == nil {
		return "", errors.New("--prompt - reads stdin, but there is none")
	}
	b, err := io.ReadAll(c.stdio.in)
	if err != nil {
		return "", fmt.Errorf("read the prompt from stdin: %w", err)
	}
	return string(b), nil
}

// timeoutFlag adds --timeout to fs, bound to d: how long a wait may take,
// 0 for no limit. A negative one is refused as a bad value (it would
// otherwise mean no limit too).
func timeoutFlag(fs *pflag.FlagSet, d *time.Duration, usage string) {
	fs.Var((*waitTimeout)(d), "timeout", usage)
}

// waitTimeout is --timeout's value.
type waitTimeout time.Duration

// errNegativeTimeout is why a negative --timeout is refused.
var errNegativeTimeout = errors.New("must not be negative (0: no limit)")

func (t *waitTimeout) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if d < 0 {
		return errNegativeTimeout
	}
	*t = waitTimeout(d)
	return nil
}

func (t *waitTimeout) String() string { return time.Duration(*t).String() }

// Type is what pflag calls the value's kind, as it does a time.Duration.
func (*waitTimeout) Type() string { return "duration" }

// waitContext bounds a wait by --timeout (zero: only by ctx, e.g. ctrl+c).
func waitContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(ctx, timeout)
	}
	return context.WithCancel(ctx)
}

// printResult prints a result as `octop result` does and returns the exit
// code for it: codeTaskError when the task ended in an error.
func (c *command) printResult(r task.Result) int {
	fmt.Fprint(c.stdio.out, r.Format())
	if r.State == model.StatusError {
		return codeTaskError
	}
	return codeOK
}

// missing reports the required flags not given on the command line, in a
// stable order. A flag given blank (--prompt "") is given: the caller says
// what is wrong with its value instead of calling it missing.
func (c *command) missing(names ...string) []string {
	set := map[string]bool{}
	c.fs.Visit(func(f *pflag.Flag) { set[f.Name] = true })
	var out []string
	for _, name := range names {
		if !set[name] {
			out = append(out, "--"+name)
		}
	}
	sort.Strings(out)
	return out
}

func squashSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }
