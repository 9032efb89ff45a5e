package internal

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goFile is one parsed Go file of the module: its path from the
// module's root, and its syntax.
type goFile struct {
	path string
	fset *token.FileSet
	file *ast.File
}

// moduleFiles parses the module's Go files (comments kept) that keep
// says to, path from the module's root; the build cache and the
// end-to-end tests' servers are not the module's.
func moduleFiles(t *testing.T, keep func(path string) bool) []goFile {
	t.Helper()
	var out []goFile
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, "../"))
		if d.IsDir() {
			if name := d.Name(); name != ".." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || !keep(rel) {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		out = append(out, goFile{path: rel, fset: fset, file: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("found %d Go files; the test would prove little", len(out))
	}
	return out
}

// product says path is the product's code: not a test, not e2e.
func product(path string) bool {
	return !strings.HasSuffix(path, "_test.go") && !strings.HasPrefix(path, "e2e/")
}

// calledName is the name a call calls: f in f(), x.f() and f[T]().
func calledName(c *ast.CallExpr) string {
	fun := c.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	}
	if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// TestOneBoundedHistoryReader: reading many sessions' messages a few at
// a time is written once, task.ReadHistories. A function elsewhere that
// starts goroutines and reads messages in them is a second reader, with
// its own bound and its own idea of a failed read.
func TestOneBoundedHistoryReader(t *testing.T) {
	reads := map[string]bool{"History": true, "Messages": true, "MessagesOf": true, "messagesInto": true}
	for _, f := range moduleFiles(t, product) {
		if f.path == "internal/task/histories.go" {
			continue // the one
		}
		for _, d := range f.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			var spawns, read bool
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt:
					spawns = true
				case *ast.CallExpr:
					name := calledName(n)
					spawns = spawns || name == "Go"
					read = read || reads[name]
				}
				return true
			})
			if spawns && read {
				t.Errorf("%s: %s reads messages on goroutines of its own; use task.ReadHistories", f.path, fn.Name.Name)
			}
		}
	}
}

// TestOneIntake: a snapshot read after a (re)connect enters a model only
// through internal/intake, the screen's and `octop watch`'s alike, so how
// it meets the stream's events is one rule. A one-shot read (tree,
// export, result) builds its snapshot in place and lays it itself.
func TestOneIntake(t *testing.T) {
	for _, f := range moduleFiles(t, product) {
		if strings.HasPrefix(f.path, "model/") || strings.HasPrefix(f.path, "internal/intake/") {
			continue
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || calledName(c) != "ApplySnapshot" || len(c.Args) != 1 {
				return true
			}
			if _, literal := c.Args[0].(*ast.CompositeLit); !literal {
				t.Errorf("%s:%d: lays a snapshot it was handed under a model; take it in through internal/intake",
					f.path, f.fset.Position(c.Pos()).Line)
			}
			return true
		})
	}
}

// TestPackageDocsSpeakForThemselves: a package's doc says what the
// package holds, by its own name ("Package x", or "Command x" for a
// program), and names no other package of the module by its path: such
// a mention goes stale when that package moves (shell's doc once said
// "Package servers"). A parent's doc may map what lies under it.
func TestPackageDocsSpeakForThemselves(t *testing.T) {
	files := moduleFiles(t, product)
	paths := map[string]bool{} // every package's path, and without internal/
	for _, f := range files {
		dir := pathDir(f.path)
		paths[dir] = true
		paths[strings.TrimPrefix(dir, "internal/")] = true
	}
	token := regexp.MustCompile(`[A-Za-z0-9_][A-Za-z0-9_./-]*[A-Za-z0-9_]`)
	for _, f := range files {
		if f.file.Doc == nil {
			continue
		}
		dir, doc := pathDir(f.path), f.file.Doc.Text()
		want := "Package " + f.file.Name.Name + " "
		if f.file.Name.Name == "main" {
			want = "Command " + dir[strings.LastIndex(dir, "/")+1:] + " "
		}
		if !strings.HasPrefix(doc, want) {
			t.Errorf("%s: the package doc starts %q, want %q", f.path, strings.SplitN(doc, "\n", 2)[0], want)
		}
		for _, m := range token.FindAllStringIndex(doc, -1) {
			tok := doc[m[0]:m[1]]
			if m[0] > 1 && doc[m[0]-2:m[0]] == "./" {
				continue // a command to run from the module's root: `go run ./cmd/octop`
			}
			if !strings.Contains(tok, "/") || !paths[tok] {
				continue
			}
			if own := strings.TrimPrefix(dir, "internal/"); tok == dir || tok == own ||
				strings.HasPrefix(tok, dir+"/") || strings.HasPrefix(tok, own+"/") {
				continue // itself, or what lies under it
			}
			t.Errorf("%s: the package doc names %s; say what it is instead", f.path, tok)
		}
	}
}

// pathDir is the directory of a path from the module's root.
func pathDir(path string) string {
	if i := strings.LastIndex(path, "/"); i >= 0 {
		return path[:i]
	}
	return "."
}

// TestEveryTestDeadlineScales: a deadline a test gives work to finish by
// (a context's timeout, a client's, a timer, a time.After that fails the
// test, time.Now().Add) goes through testwait.Scale, so OCTOP_TEST_SLOW
// gives a loaded machine more time. A fixed duration is a deadline that
// a slow machine misses. One the test wants to pass, because nothing
// will come (a timeout under test), says so on its line: "// unscaled:
// why". A time.After in a select case that does nothing is a poll's
// pause, not a deadline.
func TestEveryTestDeadlineScales(t *testing.T) {
	for _, f := range moduleFiles(t, func(p string) bool { return strings.HasSuffix(p, "_test.go") }) {
		unscaled := map[int]bool{}
		for _, cg := range f.file.Comments {
			for _, c := range cg.List {
				if strings.Contains(c.Text, "unscaled:") {
					unscaled[f.fset.Position(c.Pos()).Line] = true
				}
			}
		}
		pauses := map[ast.Node]bool{}
		ast.Inspect(f.file, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CommClause); ok && cc.Comm != nil && len(cc.Body) == 0 {
				ast.Inspect(cc.Comm, func(n ast.Node) bool {
					if c, ok := n.(*ast.CallExpr); ok {
						pauses[c] = true
					}
					return true
				})
			}
			return true
		})
		report := func(n ast.Node, d ast.Expr, what string) {
			line := f.fset.Position(n.Pos()).Line
			if fixedDuration(d) && !unscaled[line] {
				t.Errorf("%s:%d: %s of a fixed duration; give it testwait.Scale(…)", f.path, line, what)
			}
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Timeout" {
					report(n, n.Value, "a Timeout")
				}
			case *ast.CallExpr:
				switch pkg, name := calledPkg(n), calledName(n); {
				case pkg == "context" && name == "WithTimeout" && len(n.Args) == 2:
					report(n, n.Args[1], "a context's timeout")
				case pkg == "time" && len(n.Args) > 0 && (name == "After" && !pauses[n] || name == "NewTimer" || name == "AfterFunc"):
					report(n, n.Args[0], "time."+name)
				case name == "Add" && len(n.Args) == 1 && isTimeNow(n):
					report(n, n.Args[0], "a deadline of time.Now()")
				}
			}
			return true
		})
	}
}

// calledPkg is x in a call x.f(), when x is a name.
func calledPkg(c *ast.CallExpr) string {
	if s, ok := c.Fun.(*ast.SelectorExpr); ok {
		if x, ok := s.X.(*ast.Ident); ok {
			return x.Name
		}
	}
	return ""
}

// isTimeNow says c is time.Now().Add(…).
func isTimeNow(c *ast.CallExpr) bool {
	s, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	now, ok := s.X.(*ast.CallExpr)
	return ok && calledPkg(now) == "time" && calledName(now) == "Now"
}

// fixedDuration says e is a duration written out: literals and time's
// units (5*time.Second), nothing computed or scaled.
func fixedDuration(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "time"
	case *ast.BinaryExpr:
		return fixedDuration(e.X) && fixedDuration(e.Y)
	case *ast.ParenExpr:
		return fixedDuration(e.X)
	}
	return false
}

// TestOneWordForUsage: what octop spent (tokens and cost) goes by one
// word, "usage", as `octop usage` and the $ room say it: no package, type
// or file is named ledger, spend or cost report.
func TestOneWordForUsage(t *testing.T) {
	other := regexp.MustCompile(`(?i)ledger|spend|spent|cost_?report`)
	for _, f := range moduleFiles(t, func(string) bool { return true }) {
		base := f.path[strings.LastIndex(f.path, "/")+1:]
		if other.MatchString(base) {
			t.Errorf("%s: the file's name says %q; say usage", f.path, other.FindString(base))
		}
		if n := f.file.Name.Name; other.MatchString(n) {
			t.Errorf("%s: package %s; say usage", f.path, n)
		}
		for _, d := range f.file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				if n := s.(*ast.TypeSpec).Name.Name; other.MatchString(n) {
					t.Errorf("%s:%d: type %s; say usage", f.path, f.fset.Position(s.Pos()).Line, n)
				}
			}
		}
	}
}

// TestOneFakeServer: unit tests that need a server use the one fake,
// internal/testkit/opencodetest (with handlers of their own where they
// need other answers); only it starts an httptest server. End-to-end
// tests use real servers.
func TestOneFakeServer(t *testing.T) {
	for _, f := range moduleFiles(t, func(p string) bool {
		return !strings.HasPrefix(p, "e2e/") && !strings.HasPrefix(p, "internal/testkit/opencodetest/")
	}) {
		ast.Inspect(f.file, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && calledPkg(c) == "httptest" &&
				strings.HasPrefix(calledName(c), "New") && strings.HasSuffix(calledName(c), "Server") {
				t.Errorf("%s:%d: starts an httptest server of its own; use opencodetest", f.path, f.fset.Position(c.Pos()).Line)
			}
			return true
		})
	}
}
