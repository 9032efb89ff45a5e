package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// server is a running scaleserver and what it serves.
type server struct {
	url       string
	cmd       *exec.Cmd
	dir       string   // scratch: the server's binary, the URL lists
	ids       []string // every session, newest update first
	listBytes int64
	newest    string // the newest root's title, as a row shows it first
	week      int    // sessions updated in the last 7 days
}

// data is what a scaleserver serves: n sessions over days, from seed,
// its lists answered no sooner than listAfter after it started.
type data struct {
	n         int
	days      float64
	seed      int
	listAfter time.Duration
}

// buildServer builds internal/dev/scaleserver into a scratch directory.
func buildServer() (string, error) {
	dir, err := os.MkdirTemp("", "benchscale")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "scaleserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./internal/dev/scaleserver").CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("build scaleserver: %v: %s", err, out)
	}
	return bin, nil
}

// startServer starts the scaleserver bin on a free port, serving d.
func startServer(bin string, d data) (*server, error) {
	dir, err := os.MkdirTemp("", "benchscale")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-sessions", fmt.Sprint(d.n), "-days", fmt.Sprint(d.days),
		"-seed", fmt.Sprint(d.seed), "-list-after", d.listAfter.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, dir: dir}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		s.stop()
		return nil, fmt.Errorf("scaleserver said no address: %w", err)
	}
	s.url = strings.TrimSpace(line)
	if d.listAfter > 0 {
		return s, nil // the list waits: read it later (readList)
	}
	if err := s.list(); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

func (s *server) stop() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	}
	_ = os.RemoveAll(s.dir)
}

// list reads the sessions once, for the history URLs and the title of
// the row the screen shows first.
func (s *server) list() error {
	resp, err := http.Get(s.url + "/session")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	s.listBytes = int64(len(body))
	var list []struct {
		ID, ParentID, Title string
		Time                struct{ Created, Updated int64 }
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return err
	}
	var newest int64
	week := time.Now().Add(-7 * 24 * time.Hour).UnixMilli()
	for _, x := range list {
		s.ids = append(s.ids, x.ID)
		if x.ParentID == "" && x.Time.Created > newest {
			newest, s.newest = x.Time.Created, x.Title
		}
		if x.Time.Updated >= week {
			s.week++
		}
	}
	urls := make([]string, len(s.ids))
	for i, id := range s.ids {
		urls[i] = s.url + "/session/" + id + "/message"
	}
	return os.WriteFile(filepath.Join(s.dir, "message-urls"), []byte(strings.Join(urls, "\n")+"\n"), 0o600)
}

// stats is GET /_stats.
type stats struct {
	Total       int                   `json:"total"`
	MaxInFlight int                   `json:"max_in_flight"`
	Connections int                   `json:"connections"`
	Routes      map[string]routeStats `json:"routes"`
}

type routeStats struct {
	Count  int   `json:"count"`
	DoneMS int64 `json:"done_ms"`
}

func (s *server) stats() stats {
	var st stats
	resp, err := http.Get(s.url + "/_stats")
	if err != nil {
		return st
	}
	defer resp.Body.Close()
	_ = json.NewDecoder(resp.Body).Decode(&st)
	return st
}

func (s *server) reset() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/_stats/reset", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
}

// summary is "50,002 requests (… by route), at most 4 in flight, 5 new
// connections".
func (st stats) summary() string {
	var routes []string
	for k, v := range st.Routes {
		routes = append(routes, fmt.Sprintf("%s %d", strings.TrimPrefix(k, "GET "), v.Count))
	}
	sort.Strings(routes)
	return fmt.Sprintf("%d requests (%s), at most %d in flight, %d new connections",
		st.Total, strings.Join(routes, ", "), st.MaxInFlight, st.Connections)
}

// histories is how many history reads the server answered.
func (st stats) histories() int { return st.Routes["GET /session/{id}/message"].Count }

func numCPU() int { return runtime.NumCPU() }
