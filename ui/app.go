package ui

import (
	"time"

	"charm.land/bubbles/v2/key"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/alert"
	"github.com/octop-dev/octop/internal/feed"
	"github.com/octop-dev/octop/internal/intake"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/detail"
	"github.com/octop-dev/octop/ui/dialog"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/header"
	"github.com/octop-dev/octop/ui/history"
	"github.com/octop-dev/octop/ui/inflight"
	"github.com/octop-dev/octop/ui/keymap"
	"github.com/octop-dev/octop/ui/notices"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
	"github.com/octop-dev/octop/ui/tree"
)

// EventsMsg is a batch of stream events, in arrival order (see feed).
type EventsMsg = feed.EventsMsg

// ResetMsg empties the tree: the demo's recording starts over.
type ResetMsg = feed.ResetMsg

// FlashMsg shows a one-line notice in the footer for a few seconds.
type FlashMsg = room.FlashMsg

// SelectMsg asks the screen to select a session, now or once it arrives.
type SelectMsg = room.SelectMsg

// PlaybackMsg says where a replay stands for the header: playing, paused or ended (for good).
type PlaybackMsg struct{ State string }

// Options configure the screen. Server is required outside demo mode.
type Options struct {
	// Server carries out every server operation; nil in demo mode.
	Server task.Server
	// ServerURL is shown in the header.
	ServerURL string
	// Demo says the events come from a recording (--demo, --replay): the
	// keys that only read work on what it has shown, the keys that would
	// change something answer ReadOnly.
	Demo bool
	// ReadOnly, when set, is the notice the keys that would change something
	// answer with at once: a recording's ("replay: read-only"; "demo:
	// read-only" when empty), or --read-only's, whose Server refuses too.
	// Source is the header's name for a recording, "demo" when empty.
	ReadOnly, Source string
	// AllProjects groups the roots by project directory.
	AllProjects bool
	// Clock is the time source (nil: time.Now); a replay's runs on its own.
	Clock func() time.Time
	// Timer starts every timer (nil: the system's); a test's stills the cursors.
	Timer room.Timer
	// RecordedHistory says a recording holds the histories the live screen
	// read (--record writes them): a replay reads them as it did.
	RecordedHistory bool
	// History says which histories are read without being asked (the
	// zero Policy: all of them).
	History history.Policy
	// WaitForStream: the stream beside the screen asks for a resync once
	// connected, so the first snapshot is read then (inflight.First).
	WaitForStream bool
	// NoColor draws without colour (NO_COLOR).
	NoColor bool
	// Watchdog configures the runaway detector; nil runs none.
	Watchdog *watchdog.Config
	// Notify says how the terminal is called for notable events (a root
	// ending, a wait on the person, a failure, a runaway); Getenv tells
	// the terminal's kind (TERM, TERM_PROGRAM, TMUX).
	Notify alert.Mode
	Getenv func(string) string
	// OnEvent runs, in a command, for each notable event (--exec's hook).
	OnEvent func(watchdog.Event)
	// MoreKeys are the keys of what holds this screen (servers' [ ] 1-9), for the ? help.
	MoreKeys []key.Binding
}

// pane names which pane has the keys.
type pane int

const (
	paneTree pane = iota
	paneDetail
)

// wideLayout is the width from which tree and detail sit side by side;
// below it the detail goes under the tree.
const wideLayout = 100

// Intervals of the one tick loop (Timer.Every): fast while the connection's
// countdown runs, else once a second on the second, when the panes' clocks change.
// Nothing ticks faster: the spinner steps with the clocks, in the frame
// they draw anyway; events draw their frames when they come.
const (
	fastTick = 100 * time.Millisecond
	slowTick = time.Second
	// flashFor is how long a footer notice stays.
	flashFor = 4 * time.Second
)

// spinnerFrames are the busy mark's frames.
var spinnerFrames = spinner.MiniDot.Frames

// Model is the root of the screen.
//
// It is copied into the program with every message (Update returns it as
// a tea.Model), so what is large and changes rarely is held by pointer:
// the key map, the help and the filter's input were 15 KB of its 17.
// Copies share them; the program keeps only the newest copy.
type Model struct {
	opts   Options
	keys   *keymap.KeyMap // never changed
	styles *styles.Styles // shared and never changed: swapped whole
	help   *help.Model

	tree      tree.Model
	detail    detail.Model
	filter    *textinput.Model
	filtering bool
	focus     pane
	follow    bool
	dialog    room.Dialog
	// dialogGen numbers the dialogs opened, so an request of one since
	// closed is dropped.
	dialogGen int
	calls     inflight.List
	// pendingSelect is a session an action asked to select before the
	// stream brought it (see SelectMsg).
	pendingSelect string

	state   *model.State
	counts  model.Counts // the header's, over the sessions the tree holds
	subtree model.Counts // of the selected session, for its subtree's tokens and cost

	width, height int
	now           time.Time
	frame         int   // the spinner's, stepped once a second by the tick
	tickSecond    int64 // the second of the last tick (Unix)

	conn      wire.ConnState
	connKnown bool
	// lostAt is when the connection was lost, zero while what the screen
	// shows is current: from a drop until the resync's snapshot is in,
	// the clock on the rows stops there and they are drawn faint.
	lostAt    time.Time
	version   string        // the server's OpenCode version
	in        intake.Intake // how the server's data enters state
	snapErr   error
	healthTag int
	hist      history.Reader
	shown     shown // what a screen around this one shows of it (ShownMsg)
	// asksUnread says why the last snapshot laid could not read the
	// pending asks ("" when it did), which stay as they were.
	asksUnread string

	flashMsg FlashMsg
	flashTag int
	playback string // a replay's PlaybackMsg

	// wd is the watchdog (nil when off); runawayN how many sessions it
	// marks run now; notice the last notification, shown in the header until the
	// next key press (seen).
	wd       *notices.Watch
	runawayN int
	notice   string

	// helpView is the footer's help, drawn by layout; footerH its height;
	// hdr keeps the header's last lines (shared by the model's copies).
	helpView string
	footerH  int
	hdr      *header.Cache
	// rows keeps the screen's rows of the last frame (see format.Rows).
	rows *format.Rows
}

// New returns the screen. It does no I/O: Init returns the first fetches.
func New(opts Options) Model {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Timer == nil {
		opts.Timer = room.RealTimer{}
	}
	st := styles.New(true, opts.NoColor)
	f := textinput.New()
	f.Prompt = "/"
	f.Placeholder = "title, agent or id"
	f.SetVirtualCursor(true)
	keys := keymap.DefaultKeyMap()
	m := Model{
		opts:   opts,
		keys:   &keys,
		styles: st,
		help:   newHelp(),
		tree:   tree.New(st),
		detail: detail.New(st),
		filter: &f,
		state:  model.New(),
		now:    opts.Clock(),
		hist:   history.New(opts.History),
		width:  80,
		height: 24,
		hdr:    &header.Cache{},
		rows:   &format.Rows{},
	}
	m.applyStyles(st)
	if m.opts.Getenv == nil {
		m.opts.Getenv = func(string) string { return "" }
	}
	m.wd = notices.New(opts.Watchdog, notices.Options{Notify: opts.Notify, Getenv: m.opts.Getenv, OnEvent: opts.OnEvent, Server: opts.Server})
	if m.wd != nil {
		m.tree.SetRunaway(m.wd.Runaway)
		m.detail.SetRunaway(m.wd.Evidence)
	}
	m.tree.SetGroupByDirectory(opts.AllProjects)
	m.tree.SetState(m.state)
	m.detail.SetState(m.state)
	m.layout()
	m.syncClock()
	return m
}

// Init asks the terminal for its background and starts the tick loop and
// the first reads (inflight.First).
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.opts.Timer.Every(slowTick, nextTick)}
	if m.opts.Server != nil {
		cmds = append(cmds, inflight.First(m.opts.Server, m.opts.WaitForStream))
	}
	return tea.Batch(cmds...)
}

// State is the tree the screen shows. Tests read it; nothing else should.
func (m Model) State() *model.State { return m.state }

// Selected is the selected session's id.
func (m Model) Selected() string { return m.tree.Selected() }

// newHelp is the footer's help with narrow column gaps, so the full help
// fits 80 columns.
func newHelp() *help.Model {
	h := help.New()
	h.FullSeparator = "  "
	return &h
}

// applyStyles hands the style set to every part of the screen.
func (m *Model) applyStyles(st *styles.Styles) {
	_, system := m.opts.Timer.(room.RealTimer) // only its cursors blink
	m.styles, st.StillCursor = st, !system
	m.tree.SetStyles(st)
	m.detail.SetStyles(st)
	m.help.Styles = st.Help
	m.filter.SetStyles(dialog.InputStyles(st))
}

// syncClock passes the time, to the second the panes show, and the
// spinner frame to the panes. While the server is out of reach their clock
// stays at the moment it was lost and no spinner turns: nothing is known to
// be running any more.
func (m *Model) syncClock() {
	spin := spinnerFrames[m.frame%len(spinnerFrames)]
	now := m.now.Truncate(time.Second).UnixMilli()
	if !m.lostAt.IsZero() {
		spin, now = format.MarkStale, m.lostAt.UnixMilli()
	}
	m.tree.SetStale(!m.lostAt.IsZero())
	m.tree.SetClock(now, spin)
	m.detail.SetClock(now, spin)
}

// Summary is what a screen of several servers shows of this one.
type Summary = header.Summary

// Summary is the screen's server, connection and counts; its strings are
// one line each, cleaned (format.OneLine), as the bar draws them.
func (m Model) Summary() Summary {
	return Summary{
		ServerURL: format.OneLine(m.opts.ServerURL), Version: format.OneLine(m.version), Conn: m.conn, ConnKnown: m.connKnown,
		Counts: m.counts,
	}
}

// Typing says the keys go to text or a room (a dialog or the filter is
// open), so a screen around this one must pass every key on.
func (m Model) Typing() bool { return m.dialog != nil || m.filtering }

// Tree is the tree pane, for a screen that draws several servers' trees
// as one (internal/servers). It shares the pane's cache: read it, never keep it.
func (m Model) Tree() tree.Model { return m.tree }

// Panes is where the tree and the detail are drawn; room says a room
// covers them, treeKeys that the tree would take the moving keys (no
// room open, no filter typed, the tree focused).
func (m Model) Panes() (t, d format.Rect, room, treeKeys bool) {
	a := m.areas()
	return a.tree, a.detail, m.dialog != nil, m.dialog == nil && !m.filtering && m.focus == paneTree
}
