// Package cli is octop's command line, on cobra with Charm's fang (styled
// help, shell completion, a man page): the screen's flags and wiring
// (flags → client → ui → renderer, with the event stream running in a
// goroutine that feeds the program) and every subcommand for scripts
// (launch, resume, say, retry, abort, result, tree, watch, log, config), with their
// flags, output and exit codes.
//
// Extending it: a subcommand lives in cmd_NAME.go, where a.newNAME makes
// its cobra command from a subcommand (commands.go: usage line, summary,
// help, its own flags, its run), and is listed in app.subcommands; the
// server work it does belongs with the task operations the screen's keys
// share (AGENTS.md, "A subcommand"). A flag every command
// takes is a connection flag (connFlags.register, the root's persistent
// flags); the screen's own flags are globalFlags.register.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/alert"
	"github.com/octop-dev/octop/internal/config"
	"github.com/octop-dev/octop/internal/feed"
	"github.com/octop-dev/octop/internal/frametrace"
	"github.com/octop-dev/octop/internal/hook"
	"github.com/octop-dev/octop/internal/renderer"
	"github.com/octop-dev/octop/internal/sanitize"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui"
)

// Version and Commit are the build's, as cmd/octop was stamped by
// `make dist` ("" when it was not); Main sets them before anything else.
var (
	version = ""
	commit  = ""
)

// globalFlags are the screen's flags: the connection flags every command
// shares, plus the screen's own.
type globalFlags struct {
	conn        connFlags
	AllProjects bool
	// Record is --record's file: everything received is written there.
	Record string
	// Discover adds the servers announced on the local network (mDNS).
	Discover bool
	// wd and notify are the watchdog's flags; history the history reads'.
	wd      watchdogFlags
	notify  string
	history historyFlags
	// demo, replay and speed play a recording instead of a server;
	// version prints the version instead.
	demo, version bool
	replay        string
	speed         float64
}

// register adds the screen's own flags to fs; the connection flags are
// the root's persistent ones (connFlags.register).
func (g *globalFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&g.AllProjects, "all-projects", false, "watch every project on the server, grouped by directory")
	fs.StringVar(&g.Record, "record", "", "write everything received to FILE (gzip NDJSON) for --replay")
	fs.BoolVar(&g.Discover, "discover", false, "also watch the servers announced on the local network by 'opencode serve --mdns', as they appear")
	fs.StringVar(&g.notify, "notify", screenNotify, "call the terminal when a root ends, something waits on you, a session fails or runs away: MODE none, bell, osc or all")
	g.wd.register(fs)
	g.history.register(fs)
	fs.BoolVar(&g.demo, "demo", false, "replay a built-in recording; needs no server")
	fs.StringVar(&g.replay, "replay", "", "play back a recording made with --record FILE; needs no server")
	fs.Float64Var(&g.speed, "speed", 1, "with --replay: start at this SPEED (0.25, 0.5, 1, 2, 4, 8, 16 or 32)")
	fs.BoolVar(&g.version, "version", false, "print octop's version and exit")
}

// options are the client options the flags describe, over the
// environment's and the config file's settings.
func (g globalFlags) options() (client.Options, error) {
	o, err := g.conn.resolve(client.OptionsFromEnv())
	o.Global = g.AllProjects
	return o, err
}

// Build is what a release build stamps into the binary.
type Build struct{ Version, Commit string }

// Main runs octop with args (os.Args[1:]) and returns its exit code.
func Main(b Build, args []string) int {
	version, commit = b.Version, b.Commit
	stopProfile, err := startCPUProfile()
	if err != nil {
		fmt.Fprintln(os.Stderr, "octop:", err)
		return 2
	}
	code := realMain(args, os.Stdin, os.Stdout, os.Stderr)
	stopProfile()
	return code
}

// realMain is main without the exit, so that flag handling can be tested.
func realMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return realMainContext(context.Background(), args, stdin, stdout, stderr)
}

// realMainContext is realMain until ctx ends.
func realMainContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// What reaches the terminal outside the screen is cleaned too: an
	// error may quote a server, a hook or the config file.
	stdout, stderr = sanitize.NewWriter(stdout), sanitize.NewWriter(stderr)
	a := &app{stdio: cmdIO{stdin, stdout, stderr}, base: client.OptionsFromEnv()}
	return a.executeContext(ctx, args)
}

// runScreen is `octop` with no command: the screen, once the config
// file's settings are the values of the flags not given (fs, parsed into
// g).
func runScreen(g *globalFlags, fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	cfg, err := config.Load()
	if err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 2
	}
	g.conn.cfg = cfg
	if err := applyConfig(fs, cfg); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 2
	}
	if g.version {
		fmt.Fprintln(stdout, versionLine())
		return 0
	}
	if g.demo {
		return runDemo(stderr)
	}
	policy, err := g.history.policy()
	if err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	boundMemory(ctx)
	if g.replay != "" {
		return runReplay(g.replay, g.speed, policy, stderr)
	}
	if len(g.conn.serverNames()) > 1 || g.Discover {
		return runSeveral(*g, stderr)
	}
	return runLive(*g, stderr)
}

// runLive watches a real server.
func runLive(g globalFlags, stderr io.Writer) int {
	wd, notify, err := g.watchdog()
	if err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 2
	}
	o, err := g.options()
	if err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	paced(&o)
	rec, err := startRecording(g.Record, &o)
	if err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	defer rec.close(stderr)
	// The hook's failures and what the server sent that does not decode
	// go to the screen as a notice; the program it sends to is made
	// below, before anything is read or any event can start a hook.
	var p *renderer.Program
	o.Undecodable = func(u wire.Undecodable) { p.Send(undecodableFlash(u)) }
	c, err := client.New(o)
	if err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 2
	}
	policy, _ := g.history.policy() // checked by runScreen
	opts := screenOn(c, rec, ui.Options{
		ServerURL:   c.BaseURL(),
		History:     policy,
		AllProjects: g.AllProjects,
		NoColor:     noColor(),
		Getenv:      os.Getenv,
		Watchdog:    &wd,
		Notify:      notify,
	})
	tr, err := openTrace()
	if err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 2
	}
	if g.wd.exec != "" {
		h := hook.New(g.wd.exec, c.BaseURL(), g.wd.hookTimeout, func(r hook.Result) {
			if r.Err != nil {
				p.Send(ui.FlashMsg{Text: hookFailure(r), Error: true})
			}
		})
		defer h.Stop() // quitting kills a hook still running
		opts.OnEvent = h.Run
	}
	if tr != nil {
		defer tr.Close()
	}
	p = newProgram(traced(tr, ui.New(opts)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer rec.close(stderr) // before the stream's goodbye, which is octop quitting
	// No interval: the paced stream says when to draw (wire.CaughtUp).
	b := feed.NewBatcher(p.Send, 0)
	send := b.Send
	if tr != nil {
		send = tr.Send(send)
	}
	go func() {
		// Stream reconnects on its own; it returns only when cancelled or
		// on an error retrying cannot fix, which it has already reported
		// to the screen as a ConnState.
		_ = c.Stream(ctx, rec.send(send))
	}()
	if _, err := p.Run(); err != nil {
		fmt.Fprintln(stderr, "octop:", err)
		return 1
	}
	return 0
}

// undecodableFlash is the screen's notice of a record the server sent
// that did not decode (client.Options.Undecodable): left out, or shown
// marked where it belongs.
func undecodableFlash(u wire.Undecodable) ui.FlashMsg {
	return ui.FlashMsg{Text: u.Error(), Error: true}
}

// paced sets a screen's stream to read once per feed.FrameInterval while
// it is busy (client.StreamOptions.Pace): a batch then costs one wake-up
// of octop, its read, decode, Update, View and write all in one, instead
// of one wake-up per event and another for the batch (make bench-live).
// The subcommands' streams (watch) are not paced: they print each event
// as it comes.
func paced(o *client.Options) { o.Stream.Pace = feed.FrameInterval }

// frameInterval caps how often the screen is redrawn for the stream: 30
// frames a second (a key press is drawn at once, see renderer.Screen.SetNow). A
// busy stream is read once per
// feed.FrameInterval and each read's events drawn together.
// A frame writes only the lines that changed (package renderer); make
// bench-live measures how soon an event reaches the screen.
const frameInterval = time.Second / 30

// screenOptions are the options of every octop screen: the frame cap, the
// terminal.
func screenOptions() renderer.Options { return renderer.Options{Interval: frameInterval} }

// traced wraps a screen's model and output in the frame trace
// (OCTOP_TRACE), when there is one.
func traced(tr *frametrace.Trace, root tea.Model) (tea.Model, renderer.Options) {
	so := screenOptions()
	if tr == nil {
		return root, so
	}
	out := tr.Output(os.Stdout)
	out.To = renderer.RawOutput(os.Stdout)
	so.Frames = out
	return tr.Model(root, eventCount), so
}

// newProgram is the program of every octop screen: root, drawn by package
// screen with options o.
//
// The screen runs on one processor unless GOMAXPROCS says otherwise: its
// work is one event loop fed by a stream, so a second processor adds no
// speed, only the scheduler's spinning between them (make bench-live: a
// quarter of octop's CPU).
func newProgram(root tea.Model, o renderer.Options) *renderer.Program {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	return renderer.NewProgram(root, o)
}

// openTrace starts the latency trace when OCTOP_TRACE names a file
// (make bench-live sets it); nil when unset.
func openTrace() (*frametrace.Trace, error) {
	path := os.Getenv("OCTOP_TRACE")
	if path == "" {
		return nil, nil
	}
	return frametrace.Open(path)
}

// eventCount is how many stream events a message carries, for the trace.
func eventCount(msg tea.Msg) int {
	if e, ok := msg.(ui.EventsMsg); ok {
		return len(e)
	}
	return 0
}

// watchdog checks the watchdog's and --notify's flags.
func (g globalFlags) watchdog() (watchdog.Config, alert.Mode, error) {
	cfg, err := g.wd.config()
	if err != nil {
		return cfg, alert.None, err
	}
	mode, err := alert.ParseMode(g.notify)
	return cfg, mode, err
}

// hookFailure is the one line a failed --exec run shows.
func hookFailure(r hook.Result) string {
	msg := fmt.Sprintf("--exec for %s %s: %s", r.Event.Name, r.Event.ID, r.Err)
	if r.Out != "" {
		msg += ": " + r.Out
	}
	return msg
}

// noColor honours https://no-color.org: any non-empty NO_COLOR.
func noColor() bool { return os.Getenv("NO_COLOR") != "" }

// octopVersion is the version: stamped by make dist, else the module
// version go install recorded, else "dev".
func octopVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// octopCommit is the commit built from: stamped by make dist, else the
// one go build recorded from the checkout, else "".
func octopCommit() string {
	if commit != "" {
		return commit
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				return s.Value[:min(len(s.Value), 12)]
			}
		}
	}
	return ""
}

// versionLine is what --version prints.
func versionLine() string {
	if c := octopCommit(); c != "" {
		return "octop " + octopVersion() + " (commit " + c + ")"
	}
	return "octop " + octopVersion()
}
