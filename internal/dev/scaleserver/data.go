package main

import (
	"math"
	"sort"
	"strings"
)

// The data set: n sessions in families of a root and its children, created
// one family after another over a span (a year by default) that ends at now. Everything about
// a session derives from (seed, its index) through hash, so nothing but the
// times, the ids and an index by id is kept; histories are generated on
// request.

const (
	day  = 24 * 3600 * 1000 // ms
	year = 365 * day
	// version is the OpenCode version the fake plays.
	version = "1.18.33"
)

type dataset struct {
	n, kids int
	steps   int // assistant messages per reply: 1 or 2
	seed    uint64
	now     int64 // ms; the newest family ends before it
	span    int64 // ms; the oldest family starts this long before now
	dir     string
	project string // the project id (a git root commit hash)
	created []int64
	updated []int64 // the last message's completion + a few ms
	ids     []string
	byID    map[string]int32
	order   []int32 // newest update first, as GET /session answers
	busy    []bool
	nBusy   int
}

func newDataset(n, kids, steps int, seed uint64, now, span int64, dir string, busy int) *dataset {
	d := &dataset{n: n, kids: kids, steps: steps, seed: seed, now: now, span: span, dir: dir}
	d.project = hexN(d.h(-1, 1), 40)
	fam := kids + 1
	families := (n + fam - 1) / fam
	gap := span / int64(max(families, 1))
	// A family's runs fit in a quarter of the gap to the next one, so the
	// families never overlap and the order by creation is the order by id.
	maxRun := min(int64(5*60*1000), gap/4)
	start := now - span
	d.created = make([]int64, n)
	d.updated = make([]int64, n)
	d.ids = make([]string, n)
	d.byID = make(map[string]int32, n)
	for f := 0; f < families; f++ {
		base := start + int64(f)*gap + int64(d.h(f, 2)%uint64(max(gap/8, 1)))
		root := f * fam
		d.created[root] = base
		end := base + 4000 + int64(d.h(root, 3)%1000)
		for k := 1; k < fam && root+k < n; k++ {
			i := root + k
			d.created[i] = base + 4100 + int64(k-1)*150 + int64(d.h(i, 4)%100)
			run := min(20_000+int64(d.h(i, 5)%uint64(max(maxRun-20_000, 1))), maxRun)
			d.updated[i] = d.created[i] + run + 8
			end = max(end, d.updated[i]+2000+int64(d.h(i, 6)%3000))
		}
		d.updated[root] = end + 8
	}
	for i := range n {
		d.ids[i] = "ses_" + descendingID(d.created[i], 1) + base62(d.h(i, 7), 14)
		d.byID[d.ids[i]] = int32(i)
	}
	d.order = make([]int32, n)
	for i := range d.order {
		d.order[i] = int32(i)
	}
	sort.Slice(d.order, func(a, b int) bool {
		x, y := d.order[a], d.order[b]
		if d.updated[x] != d.updated[y] {
			return d.updated[x] > d.updated[y]
		}
		return d.ids[x] > d.ids[y]
	})
	d.busy = make([]bool, n)
	for _, i := range d.order[:min(busy, n)] {
		d.busy[i] = true
		d.nBusy++
	}
	return d
}

func (d *dataset) isRoot(i int) bool { return d.kids == 0 || i%(d.kids+1) == 0 }

func (d *dataset) parent(i int) int {
	if d.isRoot(i) {
		return -1
	}
	return i - i%(d.kids+1)
}

// childrenOf lists a session's children in creation order.
func (d *dataset) childrenOf(i int) []int {
	if !d.isRoot(i) {
		return nil
	}
	var out []int
	for k := 1; k <= d.kids && i+k < d.n; k++ {
		out = append(out, i+k)
	}
	return out
}

// h is the deterministic random number for (index, salt).
func (d *dataset) h(i int, salt uint64) uint64 {
	return splitmix(d.seed ^ splitmix(uint64(int64(i))*0x9e3779b97f4a7c15^salt*0xbf58476d1ce4e5b9))
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func pick[T any](xs []T, r uint64) T { return xs[r%uint64(len(xs))] }

// OpenCode's identifiers (src/id/id.ts): 12 hex digits of the low 48 bits
// of timestamp*0x1000+counter, bitwise-negated for sessions so that newer
// sorts first, then 14 random base-62 characters.
func ascendingID(ts int64, counter int) string {
	return hex12(uint64(ts)*0x1000 + uint64(counter))
}

func descendingID(ts int64, counter int) string {
	return hex12(^(uint64(ts)*0x1000 + uint64(counter)))
}

func hex12(v uint64) string {
	const digits = "0123456789abcdef"
	var b [12]byte
	for i := 11; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b[:])
}

func hexN(r uint64, n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	var x uint64
	for i := range b {
		if i%16 == 0 {
			x = splitmix(r + uint64(i)*0x9e3779b97f4a7c15)
		}
		b[i] = digits[x&15]
		x >>= 4
	}
	return string(b)
}

func base62(r uint64, n int) string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b := make([]byte, n)
	var x uint64
	for i := range b {
		if i%10 == 0 {
			x = splitmix(r + uint64(i)*0x9e3779b97f4a7c15)
		}
		b[i] = digits[x%62]
		x /= 62
	}
	return string(b)
}

// idGen numbers ids as OpenCode does within one process: the counter
// restarts at each new millisecond.
type idGen struct {
	last    int64
	counter int
}

func (g *idGen) next(ts int64) (int64, int) {
	if ts != g.last {
		g.last, g.counter = ts, 0
	}
	g.counter++
	return ts, g.counter
}

// Words for titles, slugs, prompts and commands.
var (
	adjectives = []string{"brave", "calm", "clever", "cosmic", "crisp", "eager", "gentle", "glowing", "happy", "hidden",
		"jolly", "kind", "lucky", "mighty", "misty", "nimble", "playful", "proud", "quick", "quiet", "shiny", "silent",
		"sunny", "swift", "tidy", "witty", "zesty", "bold", "bright", "fuzzy"}
	nouns = []string{"canyon", "comet", "engine", "falcon", "forest", "garden", "harbor", "island", "lagoon", "meadow",
		"moon", "mountain", "nebula", "orchid", "otter", "panda", "pixel", "planet", "river", "rocket", "sailor",
		"squid", "tiger", "wizard", "cactus", "circuit", "cabin", "eagle", "glacier", "meteor"}
	modules = []string{"auth", "billing", "cache", "config", "gateway", "ingest", "jobs", "mailer", "metrics",
		"notify", "orders", "payments", "queue", "ratelimit", "search", "session", "storage", "sync", "users", "webhooks"}
	verbs = []string{"Fix", "Refactor", "Speed up", "Add tests for", "Document", "Harden", "Simplify", "Investigate",
		"Migrate", "Clean up", "Review", "Profile"}
	things = []string{"retry handling", "error wrapping", "the connection pool", "pagination", "request logging",
		"the config loader", "timeouts", "the cache eviction", "input validation", "the CLI flags", "metrics labels",
		"the background worker"}
	childVerbs = []string{"Audit", "Explore", "Map", "Check", "Trace", "Survey", "Summarize", "Inspect"}
	symbols    = []string{"NewClient", "Retry", "Backoff", "Handler", "Store", "Open", "Close", "Flush", "Validate",
		"Parse", "Encode", "Decode", "Register", "Dispatch", "Lookup"}
)

// model is the model every session names.
var model = struct{ id, provider string }{"claude-sonnet-4-5", "anthropic"}

func (d *dataset) module(i int) string { return pick(modules, d.h(i, 10)) }

func (d *dataset) agent(i int) string {
	if d.isRoot(i) {
		return "build"
	}
	if d.h(i, 11)%3 == 0 {
		return "explore"
	}
	return "general"
}

// description is what the parent's task call named the child.
func (d *dataset) description(i int) string {
	return pick(childVerbs, d.h(i, 12)) + " " + pick(things, d.h(i, 13)) + " in " + d.module(i)
}

func (d *dataset) title(i int) string {
	if d.isRoot(i) {
		return pick(verbs, d.h(i, 12)) + " " + pick(things, d.h(i, 13)) + " in the " + d.module(i) + " service"
	}
	return d.description(i) + " (@" + d.agent(i) + " subagent)"
}

func (d *dataset) slug(i int) string {
	return pick(adjectives, d.h(i, 14)) + "-" + pick(nouns, d.h(i, 15))
}

// tokens are one assistant message's: step m (0 or 1) of session i.
type tokens struct{ input, output, reasoning, read, write float64 }

func (t tokens) total() float64 { return t.input + t.output + t.reasoning + t.read + t.write }

func (t tokens) add(o tokens) tokens {
	return tokens{t.input + o.input, t.output + o.output, t.reasoning + o.reasoning, t.read + o.read, t.write + o.write}
}

// cost is Claude Sonnet's price: $3 in, $15 out, $0.30 cache read, $3.75
// cache write per million tokens, rounded as a float to 1e-8.
func (t tokens) cost() float64 {
	c := (t.input*3 + (t.output+t.reasoning)*15 + t.read*0.3 + t.write*3.75) / 1e6
	return math.Round(c*1e8) / 1e8
}

func (d *dataset) stepTokens(i, m int) tokens {
	r := d.h(i, 20+uint64(m))
	t := tokens{input: float64(800 + r%4000), output: float64(60 + (r>>12)%400),
		read: float64(8000 + (r>>24)%24000), write: float64((r >> 40) % 3000)}
	if (r>>50)%4 == 0 {
		t.reasoning = float64((r >> 52) % 600)
	}
	return t
}

// sessionTokens is what the session's info carries: the sum of its
// completed assistant messages (a busy session's open step counts nothing
// yet, as on the real server).
func (d *dataset) sessionTokens(i int) tokens {
	if d.busy[i] {
		return tokens{}
	}
	if d.steps == 1 {
		return d.stepTokens(i, 0)
	}
	return d.stepTokens(i, 0).add(d.stepTokens(i, 1))
}

// permission is a child's ruleset as the task tool sets it.
func (d *dataset) appendPermission(b []byte, i int) []byte {
	b = key(b, "permission")
	if d.agent(i) == "explore" {
		return append(b, `[{"permission":"todowrite","pattern":"*","action":"deny"},{"permission":"task","pattern":"*","action":"deny"}]`...)
	}
	return append(b, `[{"permission":"task","pattern":"*","action":"deny"}]`...)
}

// appendSession writes session i in the real server's shape and key order
// (a session.updated from 1.18.33). project adds GlobalSession's project
// (GET /experimental/session).
func (d *dataset) appendSession(b []byte, i int, project bool) []byte {
	b = append(b, '{')
	b = kstr(b, "id", d.ids[i])
	b = kstr(b, "slug", d.slug(i))
	b = kstr(b, "projectID", d.project)
	b = kstr(b, "directory", d.dir)
	b = kstr(b, "path", "")
	if p := d.parent(i); p >= 0 {
		b = kstr(b, "parentID", d.ids[p])
	}
	b = kstr(b, "title", d.title(i))
	b = kstr(b, "agent", d.agent(i))
	b = append(key(b, "model"), '{')
	b = kstr(b, "id", model.id)
	b = kstr(b, "providerID", model.provider)
	b = kstr(b, "variant", "default")
	b = append(b, '}')
	b = kstr(b, "version", version)
	b = append(key(b, "summary"), `{"additions":0,"deletions":0,"files":0}`...)
	t := d.sessionTokens(i)
	b = knum(b, "cost", t.cost())
	b = appendSessionTokens(b, t)
	if !d.isRoot(i) {
		b = d.appendPermission(b, i)
	}
	b = append(key(b, "time"), '{')
	b = kint(b, "created", d.created[i])
	b = kint(b, "updated", d.updated[i])
	b = append(b, '}')
	if project {
		b = append(key(b, "project"), '{')
		b = kstr(b, "id", d.project)
		b = kstr(b, "name", lastElem(d.dir))
		b = kstr(b, "worktree", d.dir)
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendSessionTokens is a session's tokens: no total, cache read first.
func appendSessionTokens(b []byte, t tokens) []byte {
	b = append(key(b, "tokens"), '{')
	b = knum(b, "input", t.input)
	b = knum(b, "output", t.output)
	b = knum(b, "reasoning", t.reasoning)
	b = append(key(b, "cache"), '{')
	b = knum(b, "read", t.read)
	b = knum(b, "write", t.write)
	return append(b, '}', '}')
}

func lastElem(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
