package internal

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/octop-dev/octop/model"
)

// TestOneTableOfEndWords fails when a package outside model names an end
// or status word (complete, failed, aborted, …) as its own constant, in a
// table of words, or in a switch over words: model/words.go is their one
// home, and every output reads it, so no two outputs can name one state
// two ways. The server's own words (internal/wire: a tool call's
// "running", a status "idle") are the protocol's, not octop's.
func TestOneTableOfEndWords(t *testing.T) {
	words := map[string]bool{model.StatusError: true, model.WordWaiting: true, "done": true}
	for _, w := range model.Ends {
		words[w] = true
	}
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, "../"))
		switch {
		case d.IsDir() && (rel == "model" || rel == "internal/wire" || rel == ".cache" || strings.HasPrefix(d.Name(), ".") && rel != ".."):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		found++
		ast.Inspect(f, func(n ast.Node) bool {
			var lits []ast.Expr
			switch n := n.(type) {
			case *ast.ValueSpec:
				if typ, ok := n.Type.(*ast.Ident); n.Type == nil || ok && typ.Name == "string" {
					lits = n.Values // a typed constant (an entry's kind) is another vocabulary
				}
			case *ast.CompositeLit:
				if arr, ok := n.Type.(*ast.ArrayType); ok {
					if elt, ok := arr.Elt.(*ast.Ident); ok && elt.Name == "string" {
						lits = n.Elts // a table of words
					}
				}
			case *ast.CaseClause:
				lits = n.List
			}
			for _, e := range lits {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
					if v, _ := strconv.Unquote(b.Value); words[v] {
						t.Errorf("%s: %q is an end word: read it from model/words.go", fset.Position(b.Pos()), v)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 100 {
		t.Fatalf("read %d Go files; the test would prove little", found)
	}
}
