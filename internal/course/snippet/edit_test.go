package snippet

// This file makes one marked edit to a file's contents, the way the
// marker's HOW says: at the end, in place of a quoted text or of a
// declaration, or beside the one line that holds an anchor text.

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Why an edit could not be made; a *PlaceError wraps one of them.
var (
	// ErrNoPlace: the text, declaration or line the edit names is not in
	// the file (the file moved on since the chapter was written).
	ErrNoPlace = errors.New("snippet: place to edit not found")
	// ErrManyPlaces: it is there more than once, so the text does not
	// say which one it means.
	ErrManyPlaces = errors.New("snippet: place to edit found more than once")
)

// PlaceError reports an edit whose place does not occur exactly once.
// errors.Is(err, ErrNoPlace) or ErrManyPlaces says which.
type PlaceError struct {
	File  string
	What  string // what was looked for, in words
	Count int
}

func (e *PlaceError) Error() string {
	if e.Count == 0 {
		return fmt.Sprintf("%s: no %s", e.File, e.What)
	}
	return fmt.Sprintf("%s: %d places hold %s; it must be exactly one", e.File, e.Count, e.What)
}

// Unwrap returns ErrNoPlace or ErrManyPlaces.
func (e *PlaceError) Unwrap() error {
	if e.Count == 0 {
		return ErrNoPlace
	}
	return ErrManyPlaces
}

// Edit is a go block the learner types, and where it goes.
type Edit struct {
	File  string // relative to the module root, slash-separated
	How   string // append, replace, replace-func, before or after
	Arg   string // replace-func: the function's name; before, after: the anchor text
	Find  string // replace: the text the block replaces
	Block Block
}

func (e *Edit) String() string {
	switch e.How {
	case "replace-func":
		return fmt.Sprintf("%s replace-func %s", e.File, e.Arg)
	case "before", "after":
		return fmt.Sprintf("%s %s %q", e.File, e.How, e.Arg)
	}
	return e.File + " " + e.How
}

// Apply returns src with e made. It returns a *PlaceError when the place e
// names does not occur exactly once in src.
func (e *Edit) Apply(src []byte) ([]byte, error) {
	s, body := string(src), e.Block.Body
	switch e.How {
	case "append":
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		return []byte(s + "\n" + body), nil
	case "replace":
		if n := strings.Count(s, e.Find); n != 1 {
			return nil, &PlaceError{File: e.File, What: fmt.Sprintf("text %q to replace", firstLine(e.Find)), Count: n}
		}
		return []byte(strings.Replace(s, e.Find, body, 1)), nil
	case "replace-func":
		start, end, err := e.declaration(src)
		if err != nil {
			return nil, err
		}
		return []byte(s[:start] + strings.TrimSuffix(body, "\n") + s[end:]), nil
	case "before", "after":
		return e.insert(s)
	}
	return nil, fmt.Errorf("%s: no way to apply %q", e.File, e.How)
}

// insert puts the block before or after the one line holding e.Arg.
func (e *Edit) insert(s string) ([]byte, error) {
	lines := strings.SplitAfter(s, "\n")
	at, n := 0, 0
	for i, l := range lines {
		if strings.Contains(l, e.Arg) {
			at, n = i, n+1
		}
	}
	if n != 1 {
		return nil, &PlaceError{File: e.File, What: fmt.Sprintf("line holding %q", e.Arg), Count: n}
	}
	if e.How == "after" {
		at++
		if !strings.HasSuffix(lines[at-1], "\n") {
			lines[at-1] += "\n"
		}
	}
	out := strings.Join(lines[:at], "") + e.Block.Body + strings.Join(lines[at:], "")
	return []byte(out), nil
}

// declaration returns the byte range of the declaration e names in src,
// its doc comment included.
func (e *Edit) declaration(src []byte) (start, end int, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, e.File, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return 0, 0, fmt.Errorf("read %s for replace-func: %w", e.File, err)
	}
	recv, name, isMethod := strings.Cut(e.Arg, ".")
	if !isMethod {
		recv, name = "", e.Arg
	}
	var found []*ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name && receiverName(fd) == recv {
			found = append(found, fd)
		}
	}
	if len(found) != 1 {
		return 0, 0, &PlaceError{File: e.File, What: "declaration of " + e.Arg, Count: len(found)}
	}
	fd := found[0]
	from := fd.Pos()
	if fd.Doc != nil {
		from = fd.Doc.Pos()
	}
	return fset.Position(from).Offset, fset.Position(fd.End()).Offset, nil
}

// receiverName is the name of fd's receiver type, without * or type
// parameters; "" for a function.
func receiverName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// firstLine is s's first non-blank line, trimmed, for messages.
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}
