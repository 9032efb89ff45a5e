package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/config"
	"github.com/octop-dev/octop/internal/task"
)

// Exit codes of the subcommands, fixed so scripts can rely on them.
const (
	codeOK        = 0 // done
	codeFail      = 1 // the server or the request failed
	codeUsage     = 2 // bad usage: a missing flag, a malformed id, an empty prompt, an unknown agent
	codeNoSession = 3 // no such session on the server
	codeTaskError = 4 // result, --wait, log --follow, watch --until-done: the task ended in an error
	codeTimeout   = 5 // --wait --timeout: the time ran out while the task still ran
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

// subcommand is one `octop NAME …` entry point for scripts.
type subcommand struct {
	name    string
	summary string
	run     func(ctx context.Context, stdio cmdIO, base client.Options, args []string) int
}

// subcommands are the script entry points, in the order help lists them.
var subcommands = []subcommand{
	{"launch", "start an async task under a session and print its task_id", runLaunch},
	{"resume", "send a new prompt to a task, continuing its history", runResume},
	{"abort", "stop a running session, or its whole subtree", runAbort},
	{"result", "print a task's status and result", runResult},
	{"tree", "print the session tree with statuses and tool-call counts", runTree},
	{"watch", "print sessions starting, ending, waiting and running away, one line each", runWatch},
	{"log", "print a session's transcript; --follow tails it while it runs", runLog},
	{"config", "print the settings in effect (config file, flags, environment), secrets masked", runConfig},
}

func findSubcommand(name string) (subcommand, bool) {
	for _, s := range subcommands {
		if s.name == name {
			return s, true
		}
	}
	return subcommand{}, false
}

// runSubcommand runs `octop [global flags] NAME [args]` when args name a
// subcommand, and reports handled=false otherwise (the TUI then runs).
// Global flags may come before or after NAME.
func runSubcommand(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, handled bool) {
	i := 0
	for i < len(args) {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !isConnFlag(name) {
			return 0, false // a TUI flag, or --help: not ours
		}
		i++
		if !hasValue && name != "read-only" {
			i++ // the flag's value is the next argument
		}
	}
	if i >= len(args) {
		return 0, false
	}
	sub, ok := findSubcommand(args[i])
	if !ok {
		return 0, false
	}
	rest := append(append([]string{}, args[:i]...), args[i+1:]...)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return sub.run(ctx, cmdIO{stdin, stdout, stderr}, client.OptionsFromEnv(), rest), true
}

// subcommandsHelp lists the subcommands for the top-level --help.
func subcommandsHelp() string {
	var b strings.Builder
	b.WriteString("Commands (for scripts; `octop COMMAND --help` for details):\n")
	for _, s := range subcommands {
		fmt.Fprintf(&b, "  %-8s %s\n", s.name, s.summary)
	}
	return b.String()
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

var connFlagNames = []string{"server", "password", "username", "directory", "read-only"}

func isConnFlag(name string) bool {
	for _, n := range connFlagNames {
		if n == name {
			return true
		}
	}
	return false
}

func (f *connFlags) register(fs *flag.FlagSet) {
	fs.Var(serverFlag{f}, "server", "OpenCode server `URL` (http://user:pass@host:port for its own login), or the name of a server in the config file; repeat it, or list them with commas, to watch several (env OPENCODE_SERVER_URL, default "+client.DefaultURL+")")
	fs.StringVar(&f.password, "password", "", "basic-auth `PASSWORD` (env OPENCODE_SERVER_PASSWORD)")
	fs.StringVar(&f.username, "username", "", "basic-auth `USER` (env OPENCODE_SERVER_USERNAME, default "+client.DefaultUsername+")")
	fs.StringVar(&f.directory, "directory", "", "project `DIR` on the server (default: the server's own)")
	fs.BoolVar(&f.readOnly, "read-only", false, "change nothing on the server: launch, resume, abort and answers are refused, and nothing but reads is sent")
}

// options lays the flags over base (the environment's options).
func (f connFlags) options(base client.Options) client.Options {
	if f.server != "" {
		base.BaseURL = f.server
	}
	if f.password != "" {
		base.Password = f.password
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

// command is one parsed subcommand invocation.
type command struct {
	name  string
	stdio cmdIO
	fs    *flag.FlagSet
	conn  connFlags
	// help is the text after the usage line: what the command does,
	// examples, exit codes.
	usage, help string
}

func newCommand(name, usage, help string, stdio cmdIO) *command {
	c := &command{name: name, stdio: stdio, usage: usage, help: help}
	c.fs = flag.NewFlagSet("octop "+name, flag.ContinueOnError)
	c.fs.SetOutput(io.Discard) // errors are reported in one line by fail
	return c
}

// parse parses args, letting flags and positional arguments mix
// (`octop resume ID --prompt …`), and returns the positional ones. done is
// true when the command should exit at once with code: --help, or bad usage.
func (c *command) parse(args []string) (pos []string, code int, done bool) {
	c.conn.register(c.fs)
	cfg, err := config.Load()
	if err == nil {
		err = applyConfig(c.fs, cfg)
	}
	if err != nil {
		return nil, c.usageError(err.Error()), true
	}
	c.conn.cfg = cfg
	for {
		if err := c.fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				c.printHelp()
				return nil, codeOK, true
			}
			return nil, c.usageError(strings.Replace(err.Error(), ": -", ": --", 1)), true
		}
		args = c.fs.Args()
		if len(args) == 0 {
			return pos, 0, false
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), 0, false
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func (c *command) printHelp() {
	w := c.stdio.out
	fmt.Fprintf(w, "Usage: octop %s\n\n%s\n\nFlags:\n", c.usage, strings.TrimSpace(c.help))
	var lines [][2]string
	width := 0
	c.fs.VisitAll(func(f *flag.Flag) {
		if isConnFlag(f.Name) {
			return
		}
		lines = append(lines, flagLine(f))
		width = max(width, len(lines[len(lines)-1][0]))
	})
	var conn [][2]string
	for _, n := range connFlagNames {
		conn = append(conn, flagLine(c.fs.Lookup(n)))
		width = max(width, len(conn[len(conn)-1][0]))
	}
	for _, l := range lines {
		fmt.Fprintf(w, "  %-*s  %s\n", width, l[0], l[1])
	}
	fmt.Fprintf(w, "\nConnection flags (every command):\n")
	for _, l := range conn {
		fmt.Fprintf(w, "  %-*s  %s\n", width, l[0], l[1])
	}
	fmt.Fprint(w, "\nExit codes: 0 done, 1 server or request error, 2 bad usage (or refused: read-only), 3 no such session,\n"+
		"4 the task ended in an error (result, --wait, log --follow, watch --until-done),\n"+
		"5 --wait --timeout ran out while the task still ran.\n")
}

// flagLine is "--name VALUE" and its description, as flag.UnquoteUsage
// splits them.
func flagLine(f *flag.Flag) [2]string {
	name, usage := flag.UnquoteUsage(f)
	left := "--" + f.Name
	if name != "" {
		left += " " + name
	}
	return [2]string{left, usage}
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
	if r.State == task.StateError {
		return codeTaskError
	}
	return codeOK
}

// missing reports the required flags not given on the command line, in a
// stable order. A flag given blank (--prompt "") is given: the caller says
// what is wrong with its value instead of calling it missing.
func (c *command) missing(names ...string) []string {
	set := map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
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
