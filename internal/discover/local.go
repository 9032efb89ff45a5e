package discover

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"syscall"

	"github.com/octop-dev/octop/client"
)

// Local is the per-user service OpenCode 2.0 announces in
// $XDG_STATE_HOME/opencode/service.json (~/.local/state/opencode when
// XDG_STATE_HOME is unset): {id, version, url, pid, password}. Its API
// asks for basic auth always, with that password (user "opencode").
// OpenCode 1.18 writes no such file.
type Local struct {
	ID       string `json:"id"`
	Version  string `json:"version"`
	URL      string `json:"url"`
	PID      int    `json:"pid"`
	Password string `json:"password"`
}

// maxServiceFile bounds what is read of service.json: a few hundred bytes
// is all it holds.
const maxServiceFile = 64 << 10

// ServiceFile is where OpenCode 2.0 writes service.json, from getenv's
// XDG_STATE_HOME or HOME ("" when neither is set).
func ServiceFile(getenv func(string) string) string {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "opencode", "service.json")
}

// ReadLocal reads a service.json. ok is false, with no error, when there
// is no file, or it names a process that has ended (a server that died
// without removing it); a file that is there but unreadable or names no
// usable URL is an error saying so.
func ReadLocal(path string) (l Local, ok bool, err error) {
	if path == "" {
		return Local{}, false, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Local{}, false, nil
	}
	if err != nil {
		return Local{}, false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxServiceFile))
	if err != nil {
		return Local{}, false, err
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return Local{}, false, fmt.Errorf("%s: not OpenCode's service file: %v", path, err)
	}
	u, err := url.Parse(l.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		// Quoted without its password: the file is the user's own, the
		// error goes to a terminal or a log.
		return Local{}, false, fmt.Errorf("%s: url %q is not a server address like http://127.0.0.1:4096", path, client.Redact(l.URL))
	}
	if l.PID > 0 && !alive(l.PID) {
		return Local{}, false, nil
	}
	return l, true, nil
}

// alive says whether a process with that id runs (one of another user's
// counts: it cannot be signalled, but it is there).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
