package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Server is one [[server]] table.
type Server struct {
	Name     string `toml:"name"`
	URL      string `toml:"url"`
	Username string `toml:"username"`
	// PasswordEnv names the environment variable holding the password.
	PasswordEnv string `toml:"password_env"`
	// PasswordCommand is run through the shell; its output, trimmed, is
	// the password.
	PasswordCommand string `toml:"password_command"`
	// ReadOnly is for a server octop must not change: nothing but reads
	// is sent to it, as with --read-only.
	ReadOnly bool `toml:"read_only"`
}

// Watchdog is the [watchdog] table: the defaults of the flags of the
// same names. Absent keys leave the flags' own defaults.
type Watchdog struct {
	Loop         *int     `toml:"loop"`
	Stall        string   `toml:"stall"`
	BudgetTokens *float64 `toml:"budget_tokens"`
	BudgetCost   string   `toml:"budget_cost"`
	Errors       *int     `toml:"errors"`
	AbortOn      []string `toml:"abort_on"`
}

// Notify is the [notify] table.
type Notify struct {
	Notify      string `toml:"notify"`
	Exec        string `toml:"exec"`
	ExecTimeout string `toml:"exec_timeout"`
}

// History is the [history] table: how the screen reads the histories of
// a server with many sessions (--lazy-after, --history-window,
// --history-rate).
type History struct {
	LazyAfter *int   `toml:"lazy_after"`
	Window    string `toml:"window"`
	Rate      *int   `toml:"rate"`
}

// File is the whole config file.
type File struct {
	// Path is where it was read from ("" when there was none).
	Path     string
	Servers  []Server `toml:"server"`
	Watchdog Watchdog `toml:"watchdog"`
	Notify   Notify   `toml:"notify"`
	History  History  `toml:"history"`
}

// DefaultPath is where the file is looked for.
func DefaultPath() string {
	if p := os.Getenv("OCTOP_CONFIG"); p != "" {
		return p
	}
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "octop", "config.toml")
}

// Load reads the file at DefaultPath. No file is no error: an empty File.
func Load() (File, error) {
	p := DefaultPath()
	if p == "" {
		return File{}, nil
	}
	data, err := readFile(p)
	if errors.Is(err, os.ErrNotExist) && os.Getenv("OCTOP_CONFIG") == "" {
		return File{}, nil
	}
	if err != nil {
		return File{}, fmt.Errorf("config: %w", err)
	}
	f, err := Parse(data)
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", p, err)
	}
	f.Path = p
	return f, nil
}

// readFile reads the file at p, up to one byte past MaxSize: enough for
// Parse to tell it is too large, whatever its size.
func readFile(p string) ([]byte, error) {
	fh, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return io.ReadAll(io.LimitReader(fh, MaxSize+1))
}

// Parse reads a config file's text. Its error is one line, with the line
// number when the text says where. A text over MaxSize, or nested deeper
// than MaxNesting, is refused before it is parsed.
func Parse(data []byte) (File, error) {
	if err := bounded(data); err != nil {
		return File{}, err
	}
	var f File
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return File{}, fmt.Errorf("line %d: %s", pe.Position.Line, oneLine(pe.Message))
		}
		return File{}, errors.New(oneLine(err.Error()))
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		// The first unknown key is the one to fix first.
		k := undecoded[0]
		name := k[len(k)-1]
		where := lineOf(data, name)
		if name == "password" {
			return File{}, fmt.Errorf("%sa password is not kept in the config file; use password_env or password_command", where)
		}
		return File{}, fmt.Errorf("%sunknown setting %q", where, k.String())
	}
	return f, f.check(data)
}

// check validates what the types cannot say.
func (f File) check(data []byte) error {
	seen := map[string]bool{}
	for i, s := range f.Servers {
		switch {
		case s.URL == "":
			return fmt.Errorf("server %d (%q) has no url", i+1, s.Name)
		case s.Name != "" && seen[s.Name]:
			return fmt.Errorf("%stwo servers are named %q", lineOf(data, s.Name), s.Name)
		case s.PasswordEnv != "" && s.PasswordCommand != "":
			return fmt.Errorf("server %q: give password_env or password_command, not both", s.Name)
		}
		seen[s.Name] = true
	}
	for key, v := range map[string]string{"watchdog.stall": f.Watchdog.Stall, "notify.exec_timeout": f.Notify.ExecTimeout} {
		if v == "" {
			continue
		}
		if _, err := time.ParseDuration(v); err != nil {
			return fmt.Errorf("%s%s = %q is not a duration like 3m or 10s", lineOf(data, v), key, v)
		}
	}
	if v := f.History.Window; v != "" {
		if _, err := ParseWindow(v); err != nil {
			return fmt.Errorf("%shistory.window = %q is not a span of time like 7d or 36h", lineOf(data, v), v)
		}
	}
	if n := f.History.LazyAfter; n != nil && *n < 0 {
		return fmt.Errorf("%shistory.lazy_after = %d must not be negative (0 reads every history)", lineOf(data, "lazy_after"), *n)
	}
	if n := f.History.Rate; n != nil && *n < 0 {
		return fmt.Errorf("%shistory.rate = %d must not be negative (0 reads as fast as the server answers)", lineOf(data, "rate"), *n)
	}
	return nil
}

// lineOf finds the first line mentioning s, as "line N: ", or "".
func lineOf(data []byte, s string) string {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if bytes.Contains(l, []byte(s)) {
			return "line " + strconv.Itoa(i+1) + ": "
		}
	}
	return ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// FlagDefaults are the settings given as flag name → value, for the
// flags of the same names (loop, stall, …, notify, exec).
func (f File) FlagDefaults() map[string]string {
	d := map[string]string{}
	w, n := f.Watchdog, f.Notify
	if f.History.LazyAfter != nil {
		d["lazy-after"] = strconv.Itoa(*f.History.LazyAfter)
	}
	if f.History.Window != "" {
		d["history-window"] = f.History.Window
	}
	if f.History.Rate != nil {
		d["history-rate"] = strconv.Itoa(*f.History.Rate)
	}
	if w.Loop != nil {
		d["loop"] = strconv.Itoa(*w.Loop)
	}
	if w.Errors != nil {
		d["errors"] = strconv.Itoa(*w.Errors)
	}
	if w.BudgetTokens != nil {
		d["budget-tokens"] = strconv.FormatFloat(*w.BudgetTokens, 'f', -1, 64)
	}
	for name, v := range map[string]string{"stall": w.Stall, "budget-cost": w.BudgetCost,
		"abort-on": strings.Join(w.AbortOn, ","), "notify": n.Notify, "exec": n.Exec, "exec-timeout": n.ExecTimeout} {
		if v != "" {
			d[name] = v
		}
	}
	return d
}

// Server finds the server named name.
func (f File) Server(name string) (Server, bool) {
	for _, s := range f.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return Server{}, false
}

// passwordTimeout bounds a password_command, and everything it starts.
const passwordTimeout = 10 * time.Second

// passwordMax is the most a password_command may print: a password, not
// a file; a command that prints more is stopped.
const passwordMax = 64 << 10

// Password reads the server's password: from its environment variable or
// by running its command. No source is an empty password.
//
// The command runs through the shell in a process group of its own,
// with no terminal to read: after passwordTimeout the whole group is
// killed (a shell running a pipe, or anything that forks, would outlive
// its shell), and so is one that prints more than passwordMax. What it
// writes on stderr is thrown away, never shown in an error: a command
// may print the secret there.
func (s Server) Password(ctx context.Context) (string, error) {
	switch {
	case s.PasswordEnv != "":
		return os.Getenv(s.PasswordEnv), nil
	case s.PasswordCommand != "":
		return s.runPasswordCommand(ctx)
	}
	return "", nil
}

// PasswordFrom names where the password comes from, for a hint when the
// server wants one or refuses it: "$MY_PW (password_env of server \"work\"
// in PATH)"; "" when the entry gives no source. path is the config file's.
func (s Server) PasswordFrom(path string) string {
	in := fmt.Sprintf("of server %q", s.Name)
	if path != "" {
		in += " in " + path
	}
	switch {
	case s.PasswordEnv != "":
		return "$" + s.PasswordEnv + " (password_env " + in + ")"
	case s.PasswordCommand != "":
		return "the password_command " + in
	}
	return ""
}

// PasswordSource says where the password comes from, never what it is.
func (s Server) PasswordSource() string {
	switch {
	case s.PasswordEnv != "":
		state := "unset"
		if os.Getenv(s.PasswordEnv) != "" {
			state = "set"
		}
		return "******** (from $" + s.PasswordEnv + ", " + state + ")"
	case s.PasswordCommand != "":
		return "******** (from the command `" + s.PasswordCommand + "`)"
	}
	return "(none)"
}
