package inbox

import (
	"slices"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// item is one request waiting on the person: a permission or a
// question (exactly one of perm and question is set).
type item struct {
	session  string
	perm     *wire.PermissionRequest
	question *wire.QuestionRequest
}

func (it item) id() string {
	if it.perm != nil {
		return it.perm.ID
	}
	return it.question.ID
}

// itemCache keeps the item list of one State version, so that a frame
// after no change rebuilds nothing.
type itemCache struct {
	version uint64
	valid   bool
	items   []item
}

// items lists the pending requests in tree order. Rather than walk the
// whole tree it places each waiting session by its path from its root, so
// a frame over ten thousand sessions costs about what the waiting few do.
func (d *Model) items() []item {
	if d.state == nil || d.state.Pending() == 0 {
		return nil
	}
	if d.cache.valid && d.cache.version == d.state.Version() {
		return d.cache.items
	}
	waiting := d.state.Waiting()
	paths := make(map[string][]int, len(waiting))
	for _, id := range waiting {
		paths[id] = treePath(d.state, id)
	}
	slices.SortStableFunc(waiting, func(a, b string) int { return slices.Compare(paths[a], paths[b]) })
	var out []item
	for _, id := range waiting {
		for _, p := range d.state.Permissions(id) {
			out = append(out, item{session: id, perm: &p})
		}
		for _, q := range d.state.Questions(id) {
			out = append(out, item{session: id, question: &q})
		}
	}
	d.cache = itemCache{version: d.state.Version(), valid: true, items: out}
	return out
}

// treePath is where a session sits in the tree: its root's place among
// the roots, then its place among each parent's children, top down.
// Comparing two paths orders sessions as the tree draws them.
func treePath(st *model.State, id string) []int {
	var rev []int
	seen := map[string]bool{}
	for s := st.Session(id); s != nil && !seen[s.ID]; {
		seen[s.ID] = true // a parent loop in bad data must not hang the screen
		parent := st.Session(s.ParentID)
		if s.ParentID == "" || parent == nil {
			i := slices.Index(st.Roots(), s.ID)
			if i < 0 {
				i = st.Len()
			}
			rev = append(rev, i)
			break
		}
		i := slices.Index(parent.Children(), s)
		if i < 0 {
			i = len(parent.Children())
		}
		rev = append(rev, i)
		s = parent
	}
	slices.Reverse(rev)
	return rev
}

// cursor is the index of the selected item in items, or -1 when empty.
func (d *Model) cursor(items []item) int {
	if len(items) == 0 {
		return -1
	}
	for i, it := range items {
		if it.id() == d.cur {
			return i
		}
	}
	return min(max(d.idx, 0), len(items)-1)
}

func (d *Model) moveTo(items []item, i int) {
	if len(items) == 0 {
		d.cur, d.idx = "", 0
		return
	}
	i = min(max(i, 0), len(items)-1)
	d.cur, d.idx = items[i].id(), i
}
