package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/otlp"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/usage"
	"github.com/octop-dev/octop/model"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const exportHelp = `
Send each root's whole tree (the root, its children, theirs…) to a tracing
backend as one OpenTelemetry trace, over OTLP/HTTP (protobuf), in the GenAI
semantic conventions: an invoke_agent span per session, a chat span per
reply, an execute_tool span per tool call, and a task call's child session
under that call. Times are the server's; span and trace ids are derived
from the session, message and part ids, so exporting a root again sends
the same trace.

URL is the endpoint's base, as in OTEL_EXPORTER_OTLP_ENDPOINT: traces go to
URL/v1/traces. Without --otlp, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
OTEL_EXPORTER_OTLP_ENDPOINT says where. OTEL_EXPORTER_OTLP_HEADERS (e.g. an
authorization header; sent only to that endpoint), OTEL_SERVICE_NAME
(default opencode) and OTEL_RESOURCE_ATTRIBUTES apply.

One line per root: its trace id and what was sent. A reply whose cost the
server did not report has no opencode.cost_usd, and the line says how many.
A root still running is sent as far as it got, and the line says so.

Examples:
  octop export ses_2a… --otlp http://localhost:4318
  octop export --since 24h --otlp https://otlp.example.com
  OTEL_EXPORTER_OTLP_ENDPOINT=http://tempo:4318 octop export --all`

// exportTimeout bounds reading the trees and sending every trace.
const exportTimeout = 10 * time.Minute

// exportFlags are octop export's own flags.
type exportFlags struct {
	url, since string
	all        bool
}

func (a *app) newExport() *cobra.Command {
	var f exportFlags
	return a.newSubcommand(subcommand{
		use:     "export ROOT…",
		summary: "send roots' trees to a tracing backend as OpenTelemetry traces (OTLP)",
		help:    exportHelp,
		ids:     true,
		flags: func(fs *pflag.FlagSet) {
			fs.StringVar(&f.url, "otlp", "", "send to the OTLP/HTTP endpoint at base URL (traces go to URL/v1/traces; default: OTEL_EXPORTER_OTLP_ENDPOINT)")
			fs.BoolVar(&f.all, "all", false, "export every root")
			fs.StringVar(&f.since, "since", "", "export the roots whose tree changed in this DURATION back from now (24h, 7d)")
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runExport(ctx, cmd, base, pos, f)
		},
	})
}

func runExport(ctx context.Context, cmd *command, base client.Options, roots []string, f exportFlags) int {
	url, since, all := f.url, f.since, f.all
	cutoff, err := parseSince(since, time.Now())
	switch {
	case err != nil:
		return cmd.usageError(err.Error())
	case len(roots) == 0 && !all && since == "":
		return cmd.usageError("name the roots to export (ses_…), or give --all or --since 24h")
	case len(roots) > 0 && (all || since != ""):
		return cmd.usageError("give root ids, or --all / --since, not both")
	}
	for _, r := range roots {
		if !client.ValidSessionID(r) {
			return cmd.usageError(fmt.Sprintf("%q is not a session id (they look like ses_…)", r))
		}
	}
	if _, err := otlp.Endpoint(url, os.Getenv); err != nil {
		return cmd.usageError(err.Error())
	}
	c, code, ok := cmd.newClient(base)
	if !ok {
		return code
	}
	ctx, cancel := context.WithTimeout(ctx, exportTimeout)
	defer cancel()
	if len(roots) == 0 {
		if roots, err = rootsSince(ctx, c, cutoff); err != nil {
			return cmd.fail(err)
		}
	}
	return exportRoots(ctx, cmd, c, url, roots)
}

// exportRoots reads the roots' trees and sends one trace per root. A root
// that cannot be sent is a line on stderr; the others are still sent.
func exportRoots(ctx context.Context, cmd *command, c *client.Client, url string, roots []string) int {
	st, history, skipped, err := live.LoadTrees(ctx, c, roots)
	if err != nil {
		return cmd.fail(err)
	}
	for _, id := range skipped {
		fmt.Fprintf(cmd.stdio.err, "octop export: skipped a session whose id is malformed: %s\n", squashSpaces(id))
	}
	for _, r := range roots {
		if ss := st.Session(r); ss == nil || !ss.Known {
			return cmd.fail(task.NewError(task.ErrNoSession, fmt.Sprintf("no session %s on %s", r, c.BaseURL()), nil))
		}
	}
	exp, err := newExporter(ctx, c, url)
	if err != nil {
		return cmd.fail(err)
	}
	defer func() { _ = exp.Shutdown(context.WithoutCancel(ctx)) }()
	if len(roots) == 0 {
		fmt.Fprintln(cmd.stdio.out, "no roots to export")
	}
	code := codeOK
	for _, r := range roots {
		sum, err := exp.Export(ctx, otlp.TreeOf(st, history, r))
		if err != nil {
			code = cmd.fail(err)
			if errors.Is(err, context.Canceled) {
				return code
			}
			continue
		}
		fmt.Fprintln(cmd.stdio.out, exportLine(r, st, sum))
	}
	return code
}

// newExporter builds the exporter, naming the server's OpenCode version
// in the resource when the server says it.
func newExporter(ctx context.Context, c *client.Client, url string) (*otlp.Exporter, error) {
	hctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var version string
	if h, err := c.Health(hctx); err == nil {
		version = h.Version
	}
	return otlp.New(ctx, otlp.Config{URL: url, ServerVersion: version, Version: octopVersion()})
}

// exportLine says what one root's trace holds: "ses_…  trace 4bf9…  12
// spans, 3 sessions, 5 replies  "title"", then what is missing from it.
func exportLine(root string, st *model.State, s otlp.Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  trace %s  %d spans, %s, %s", serverText(root), s.TraceID, s.Spans,
		usage.Plural(s.Sessions, "session"), usage.Plural(s.Replies, "reply"))
	if ss := st.Session(root); ss != nil && ss.Title != "" {
		fmt.Fprintf(&b, "  %q", serverText(ss.Title))
	}
	if s.Unpriced > 0 {
		fmt.Fprintf(&b, "; cost not reported for %d of %s (no opencode.cost_usd on them)", s.Unpriced, usage.Plural(s.Replies, "reply"))
	}
	if len(s.Running) > 0 {
		fmt.Fprintf(&b, "; %s still running: sent as far as it got", usage.Plural(len(s.Running), "session"))
	}
	return b.String()
}
