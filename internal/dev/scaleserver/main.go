// Command scaleserver is a fake OpenCode 1.18.33 server holding many
// finished sessions, for measuring octop at scale (make bench-scale).
//
//	go run ./internal/dev/scaleserver -addr 127.0.0.1:4097 -sessions 50000
//
// It answers what octop reads, in the real server's shapes and key order
// (checked against shared/reference/opencode: openapi-1.18.33.json and the
// events-1.18.33-*.sse captures):
//
//	GET /global/health                  {"healthy":true,"version":"1.18.33"}
//	GET /session                        every session, newest update first;
//	                                    ?roots=true, ?limit=, ?start= (updated on or
//	                                    after, ms), ?search= (title), ?directory=
//	GET /experimental/session           the same across projects, paged by
//	                                    ?limit= and ?cursor= (x-next-cursor)
//	GET /session/status                 {} unless -busy N: the N newest are busy
//	GET /session/{id}                   one session; 404 NotFoundError
//	GET /session/{id}/children          its children, in creation order
//	GET /session/{id}/message           a prompt and a reply with three bash
//	                                    calls (~3,900 bytes); ?limit=, ?before=
//	GET /session/{id}/todo, /diff       []
//	GET /permission, /question          []
//	GET /project, /project/current, /agent, /config, /path
//	GET /event, /global/event           server.connected, then server.heartbeat
//	                                    every -heartbeat (10s, as 1.18.33)
//
// and its own:
//
//	GET  /_stats                        requests so far by route (with when each last answered),
//	                                    bytes, TCP connections, the most in
//	                                    flight at once, first and last request (ms)
//	POST /_stats/reset                  zero them
//
// The sessions come in families of a root and -children children, created
// one family after another over the year before -now (or -days), so a
// window of days holds a small share (or, over 10 days, 70%). Every
// session carries its tokens and cost, as 1.18.33's list does. Ids are OpenCode's (ses_ + 12 hex digits of the
// negated creation time + 14 random characters: newer sorts first).
// Everything derives from -seed and the session's index: only the times
// and ids are kept, histories are generated per request.
//
// It imports the standard library only, so it can move as it is.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:4097", "listen on `HOST:PORT` (port 0 picks one; the address is printed)")
	n := flag.Int("sessions", 50000, "how many sessions")
	kids := flag.Int("children", 9, "children per root")
	busy := flag.Int("busy", 0, "make the `N` most recently updated sessions busy (their last step open, a bash call running)")
	steps := flag.Int("steps", 1, "assistant messages per reply: 1 (calls and answer in one, ~3,900 bytes a history) or 2 (calls, then the answer: ~5 KB)")
	seed := flag.Uint64("seed", 1, "seed of the generated data")
	nowFlag := flag.Int64("now", 0, "the data set's end, Unix ms (default: now, so time windows are relative to the clock)")
	dir := flag.String("directory", "/home/dev/project", "the project directory of every session")
	beat := flag.Duration("heartbeat", 10*time.Second, "server.heartbeat interval on the event streams (0: none)")
	days := flag.Float64("days", 365, "the span the sessions are created over, in days before -now (10: 70% of them in the last 7)")
	listAfter := flag.Duration("list-after", 0, "answer the session lists no sooner than this long after the start (a team's servers answering one after another)")
	flag.Parse()
	if *n < 0 || *kids < 0 || *steps < 1 || *steps > 2 || *days <= 0 {
		log.Fatal("scaleserver: -sessions and -children must not be negative, -steps is 1 or 2, -days is more than 0")
	}
	now := *nowFlag
	if now == 0 {
		now = time.Now().UnixMilli()
	}
	t0 := time.Now()
	d := newDataset(*n, *kids, *steps, *seed, now, int64(*days*day), *dir, *busy)
	s := &server{d: d, beat: *beat, stats: newStats(), listAt: t0.Add(*listAfter)}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "scaleserver: %d sessions (%d busy), built in %s, on http://%s\n",
		d.n, d.nBusy, time.Since(t0).Round(time.Millisecond), l.Addr())
	fmt.Println("http://" + l.Addr().String())
	hs := &http.Server{Handler: s.handler(), ConnState: func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.stats.conn()
		}
	}}
	log.Fatal(hs.Serve(l))
}

type server struct {
	d      *dataset
	beat   time.Duration
	stats  *stats
	evt    idGenLocked
	listAt time.Time // the lists wait until then (-list-after)
}

func (s *server) handler() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /global/health", func(w http.ResponseWriter, r *http.Request) {
		writeRaw(w, 200, []byte(`{"healthy":true,"version":"`+version+`"}`))
	})
	m.HandleFunc("GET /session", s.list)
	m.HandleFunc("GET /experimental/session", s.listGlobal)
	m.HandleFunc("GET /session/status", s.status)
	m.HandleFunc("GET /session/{id}", s.withSession(func(w http.ResponseWriter, r *http.Request, i int) {
		writeRaw(w, 200, s.d.appendSession(nil, i, false))
	}))
	m.HandleFunc("GET /session/{id}/children", s.withSession(s.children))
	m.HandleFunc("GET /session/{id}/message", s.withSession(s.messages))
	empty := s.withSession(func(w http.ResponseWriter, r *http.Request, i int) { writeRaw(w, 200, []byte("[]")) })
	m.HandleFunc("GET /session/{id}/todo", empty)
	m.HandleFunc("GET /session/{id}/diff", empty)
	for _, p := range []string{"GET /permission", "GET /question"} {
		m.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) { writeRaw(w, 200, []byte("[]")) })
	}
	m.HandleFunc("GET /project", func(w http.ResponseWriter, r *http.Request) {
		writeRaw(w, 200, append(append([]byte("["), s.project()...), ']'))
	})
	m.HandleFunc("GET /project/current", func(w http.ResponseWriter, r *http.Request) { writeRaw(w, 200, s.project()) })
	m.HandleFunc("GET /agent", func(w http.ResponseWriter, r *http.Request) { writeRaw(w, 200, []byte(agents)) })
	m.HandleFunc("GET /config", func(w http.ResponseWriter, r *http.Request) {
		writeRaw(w, 200, []byte(`{"$schema":"https://opencode.ai/config.json","model":"`+model.provider+"/"+model.id+`","share":"disabled","autoupdate":false,"agent":{},"mode":{},"plugin":[],"command":{},"username":"dev","keybinds":{}}`))
	})
	m.HandleFunc("GET /path", func(w http.ResponseWriter, r *http.Request) {
		b := append([]byte(nil), '{')
		b = kstr(b, "home", "/home/dev")
		b = kstr(b, "state", "/home/dev/.local/state/opencode")
		b = kstr(b, "config", "/home/dev/.config/opencode")
		b = kstr(b, "worktree", s.d.dir)
		b = kstr(b, "directory", s.d.dir)
		writeRaw(w, 200, append(b, '}'))
	})
	m.HandleFunc("GET /event", s.stream(false))
	m.HandleFunc("GET /global/event", s.stream(true))
	m.HandleFunc("GET /_stats", func(w http.ResponseWriter, r *http.Request) {
		b, _ := json.MarshalIndent(s.stats.snapshot(), "", "  ")
		writeRaw(w, 200, b)
	})
	m.HandleFunc("POST /_stats/reset", func(w http.ResponseWriter, r *http.Request) {
		s.stats.reset()
		writeRaw(w, 200, []byte("true"))
	})
	return s.stats.wrap(m)
}

func writeRaw(w http.ResponseWriter, code int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

// notFound is the 1.18.33 answer for an unknown session.
func notFound(w http.ResponseWriter, id string) {
	b := []byte(`{"name":"NotFoundError","data":{"message":`)
	b = str(b, "Session not found: "+id)
	writeRaw(w, 404, append(b, "}}"...))
}

func (s *server) withSession(h func(http.ResponseWriter, *http.Request, int)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		i, ok := s.d.byID[id]
		if !ok || !s.sameDirectory(r) {
			notFound(w, id)
			return
		}
		h(w, r, int(i))
	}
}

// sameDirectory: a request naming another directory asks another project
// instance, which holds none of these sessions.
func (s *server) sameDirectory(r *http.Request) bool {
	dir := r.URL.Query().Get("directory")
	if dir == "" {
		dir = r.Header.Get("x-opencode-directory")
	}
	return dir == "" || strings.TrimRight(dir, "/") == s.d.dir || strings.HasPrefix(dir, s.d.dir+"/")
}

// list is GET /session: the directory's sessions, most recently updated
// first, filtered by roots, start and search, then cut to limit.
func (s *server) list(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Until(s.listAt))
	q := r.URL.Query()
	if !s.sameDirectory(r) && q.Get("scope") != "project" {
		writeRaw(w, 200, []byte("[]"))
		return
	}
	roots := q.Get("roots") == "true"
	start, _ := strconv.ParseInt(q.Get("start"), 10, 64)
	search := strings.ToLower(q.Get("search"))
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit <= 0 {
		limit = s.d.n
	}
	s.writeList(w, func(yield func(int) bool) {
		for _, i := range s.d.order {
			i := int(i)
			if (roots && !s.d.isRoot(i)) || s.d.updated[i] < start ||
				(search != "" && !strings.Contains(strings.ToLower(s.d.title(i)), search)) {
				continue
			}
			if !yield(i) {
				return
			}
		}
	}, limit, false)
}

// listGlobal is GET /experimental/session: the same list with each
// session's project, paged: cursor is the time.updated the page starts
// below, and x-next-cursor names the next page's while more remain.
func (s *server) listGlobal(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Until(s.listAt))
	q := r.URL.Query()
	roots := q.Get("roots") == "true"
	start, _ := strconv.ParseInt(q.Get("start"), 10, 64)
	search := strings.ToLower(q.Get("search"))
	cursor, _ := strconv.ParseInt(q.Get("cursor"), 10, 64)
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 100
	}
	var page []int
	more := false
	for _, i := range s.d.order {
		i := int(i)
		if (roots && !s.d.isRoot(i)) || s.d.updated[i] < start || (cursor > 0 && s.d.updated[i] >= cursor) ||
			(search != "" && !strings.Contains(strings.ToLower(s.d.title(i)), search)) {
			continue
		}
		if len(page) == limit {
			more = true
			break
		}
		page = append(page, i)
	}
	if more {
		w.Header().Set("x-next-cursor", strconv.FormatInt(s.d.updated[page[len(page)-1]], 10))
	}
	s.writeList(w, func(yield func(int) bool) {
		for _, i := range page {
			if !yield(i) {
				return
			}
		}
	}, limit, true)
}

// writeList streams a JSON array of sessions without building it whole.
func (s *server) writeList(w http.ResponseWriter, seq func(func(int) bool), limit int, project bool) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(200)
	// A write error is a client gone away: the rest is not sent either.
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 2048)
	_ = bw.WriteByte('[')
	n := 0
	seq(func(i int) bool {
		if n > 0 {
			_ = bw.WriteByte(',')
		}
		buf = s.d.appendSession(buf[:0], i, project)
		_, err := bw.Write(buf)
		n++
		return err == nil && n < limit
	})
	_ = bw.WriteByte(']')
	_ = bw.Flush()
}

func (s *server) status(w http.ResponseWriter, r *http.Request) {
	if !s.sameDirectory(r) || s.d.nBusy == 0 {
		writeRaw(w, 200, []byte("{}"))
		return
	}
	b := []byte("{")
	for _, i := range s.d.order {
		if s.d.busy[i] {
			b = append(key(b, s.d.ids[i]), `{"type":"busy"}`...)
		}
	}
	writeRaw(w, 200, append(b, '}'))
}

func (s *server) children(w http.ResponseWriter, r *http.Request, i int) {
	b := []byte("[")
	for k, c := range s.d.childrenOf(i) {
		if k > 0 {
			b = append(b, ',')
		}
		b = s.d.appendSession(b, c, false)
	}
	writeRaw(w, 200, append(b, ']'))
}

// messages is GET /session/{id}/message: oldest first; ?before= keeps the
// messages before that id, ?limit= the newest of them.
func (s *server) messages(w http.ResponseWriter, r *http.Request, i int) {
	msgs := s.d.history(i)
	q := r.URL.Query()
	if before := q.Get("before"); before != "" {
		k := 0
		for k < len(msgs) && msgs[k].id < before {
			k++
		}
		msgs = msgs[:k]
	}
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n > 0 && n < len(msgs) {
		msgs = msgs[len(msgs)-n:]
	}
	size := 2
	for _, m := range msgs {
		size += len(m.buf) + 1
	}
	b := make([]byte, 0, size)
	b = append(b, '[')
	for k, m := range msgs {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, m.buf...)
	}
	writeRaw(w, 200, append(b, ']'))
}

func (s *server) project() []byte {
	b := append([]byte(nil), '{')
	b = kstr(b, "id", s.d.project)
	b = kstr(b, "worktree", s.d.dir)
	b = kstr(b, "vcs", "git")
	b = append(key(b, "time"), '{')
	b = kint(b, "created", s.d.now-s.d.span)
	b = kint(b, "updated", s.d.now)
	b = append(b, '}')
	b = append(key(b, "sandboxes"), "[]"...)
	return append(b, '}')
}

// agents are a fresh 1.18.33 install's, in the fields octop reads.
const agents = `[{"name":"build","description":"The default agent. Executes tools based on configured permissions.","mode":"primary","native":true,"permission":[],"options":{}},` +
	`{"name":"plan","description":"Plan mode. Disallows all edit tools.","mode":"primary","native":true,"permission":[],"options":{}},` +
	`{"name":"general","description":"General-purpose agent for researching complex questions and executing multi-step tasks. Use this agent to execute multiple units of work in parallel.","mode":"subagent","native":true,"permission":[],"options":{}},` +
	`{"name":"explore","description":"Fast agent specialized for exploring codebases.","mode":"subagent","native":true,"permission":[],"options":{}},` +
	`{"name":"title","mode":"primary","native":true,"hidden":true,"permission":[],"options":{}},` +
	`{"name":"summary","mode":"primary","native":true,"hidden":true,"permission":[],"options":{}},` +
	`{"name":"compaction","mode":"primary","native":true,"hidden":true,"permission":[],"options":{}}]`
