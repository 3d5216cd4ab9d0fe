package snippet

// The tests that hold the chapter texts to the code: the marked edits of
// each section, applied in a copy of the module, build and do what the text
// says; the unmarked blocks of a weakening's section are that weakening's
// edit; and no block that reads like an edit to make goes unmarked.

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// moduleRoot is the module these tests read, from the package folder.
func moduleRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	assert.NilError(t, err)
	_, err = os.Stat(filepath.Join(root, "go.mod"))
	assert.NilError(t, err, "no go.mod at the module root %s", root)
	return root
}

// chapterTexts parses every chapters/*/*.md of the module at root. A
// marker it cannot read fails the test.
func chapterTexts(t testing.TB, root string) []*Text {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, weakening.ChaptersDir, "*", "*.md"))
	assert.NilError(t, err)
	assert.Assert(t, len(files) > 0, "no chapter texts under %s", root)
	var texts []*Text
	for _, f := range files {
		data, err := os.ReadFile(f)
		assert.NilError(t, err)
		rel, err := filepath.Rel(root, f)
		assert.NilError(t, err)
		text, err := Parse(filepath.ToSlash(rel), data)
		if err != nil {
			t.Errorf("%v", err)
		}
		texts = append(texts, text)
	}
	return texts
}

// where names a line of a section for a failure message.
func where(text *Text, sec *Section, line int) string {
	if sec.Title == "" {
		return fmt.Sprintf("%s:%d", text.Path, line)
	}
	return fmt.Sprintf("%s:%d (section %q)", text.Path, line, sec.Title)
}

// TestMarkedWalkthroughsBuildAndDoWhatTheTextSays applies each section's
// marked go blocks to a fresh copy of the module, builds and vets every
// package they change, and runs its marked commands: a walkthrough that
// does not compile, or a command that does not pass or fail as the text
// says, names the chapter, the line and what went wrong.
func TestMarkedWalkthroughsBuildAndDoWhatTheTextSays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs chapter tests in copies of the module, about half a minute in all; run without -short")
	}
	t.Parallel()
	root := moduleRoot(t)
	cat, err := weakening.Load(root)
	assert.NilError(t, err)
	goBin, err := exec.LookPath("go")
	assert.NilError(t, err, "the walkthroughs are checked with the go command")
	sections := 0
	for _, text := range chapterTexts(t, root) {
		for _, sec := range text.Sections {
			if len(sec.Steps) == 0 {
				continue
			}
			sections++
			name := fmt.Sprintf("%s:%d", path.Base(path.Dir(text.Path)), sec.Line)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				w := &walkthrough{t: t, text: text, sec: sec, cat: cat, goBin: goBin, dir: t.TempDir(),
					changed: map[string]bool{}, weakened: map[string][]byte{}}
				copyModule(t, root, w.dir)
				w.do()
			})
		}
	}
	assert.Assert(t, sections > 0, "no chapter text marks a block or a command: the markers are no longer found")
}

// walkthrough is one section being followed in a copy of the module.
type walkthrough struct {
	t     *testing.T
	text  *Text
	sec   *Section
	cat   *weakening.Catalog
	goBin string
	dir   string // the copy's root

	changed  map[string]bool   // package folders edited since the last build
	lines    []int             // the lines of the blocks applied since then
	weakened map[string][]byte // each weakened file's contents before drill apply
}

// do follows the section: its edits and command blocks in the order of
// the text, a build before each command block and one at the end.
func (w *walkthrough) do() {
	for _, st := range w.sec.Steps {
		if st.Edit != nil {
			w.apply(st.Edit)
			continue
		}
		w.build()
		for _, c := range st.Run.Commands {
			switch {
			case c.Weakening() != "":
				w.weaken(c)
			case c.Restores():
				w.restore()
			default:
				w.run(c, st.Run)
			}
		}
	}
	w.build()
}

// apply makes one marked edit in the copy.
func (w *walkthrough) apply(e *Edit) {
	w.t.Helper()
	at := where(w.text, w.sec, e.Block.Line)
	file := filepath.Join(w.dir, filepath.FromSlash(e.File))
	src, err := os.ReadFile(file)
	if err != nil {
		w.t.Fatalf("%s: the block goes into %s: %v", at, e.File, err)
	}
	out, err := e.Apply(src)
	if err != nil {
		w.t.Fatalf("%s: the block cannot be applied as the marker says (%s): %v", at, e, err)
	}
	assert.NilError(w.t, os.WriteFile(file, out, 0o644))
	w.changed[path.Dir(e.File)] = true
	w.lines = append(w.lines, e.Block.Line)
}

// build builds and vets the packages edited since the last build.
func (w *walkthrough) build() {
	w.t.Helper()
	if len(w.changed) == 0 {
		return
	}
	var all, withCode []string
	for _, dir := range slices.Sorted(maps.Keys(w.changed)) {
		pkg := "./" + dir + "/"
		all = append(all, pkg)
		if hasNonTestGo(filepath.Join(w.dir, filepath.FromSlash(dir))) {
			withCode = append(withCode, pkg)
		}
	}
	at := where(w.text, w.sec, w.lines[0]) + ": after the blocks at lines " + joinInts(w.lines)
	if len(withCode) > 0 {
		if out, err := w.goCommand(append([]string{"build"}, withCode...)); err != nil {
			w.t.Fatalf("%s, go build %s does not build: %v\n%s", at, strings.Join(withCode, " "), err, tail(out))
		}
	}
	if out, err := w.goCommand(append([]string{"vet"}, all...)); err != nil {
		w.t.Fatalf("%s, go vet %s fails: %v\n%s", at, strings.Join(all, " "), err, tail(out))
	}
	clear(w.changed)
	w.lines = nil
}

// weaken makes a drill apply line's edit, as drill would.
func (w *walkthrough) weaken(c Command) {
	w.t.Helper()
	at := where(w.text, w.sec, c.Line)
	wk, ok := w.cat.Lookup(c.Weakening())
	if !ok {
		w.t.Fatalf("%s: %q names no weakening of the catalog", at, c)
	}
	file := filepath.Join(w.dir, filepath.FromSlash(wk.File))
	src, err := os.ReadFile(file)
	assert.NilError(w.t, err)
	out, err := wk.Apply(src)
	if err != nil {
		w.t.Fatalf("%s: %q cannot be applied to the copy as the text leaves it: %v", at, c, err)
	}
	if _, ok := w.weakened[file]; !ok {
		w.weakened[file] = src
	}
	assert.NilError(w.t, os.WriteFile(file, out, 0o644))
}

// restore puts back every file weakened so far, as drill restore would.
func (w *walkthrough) restore() {
	w.t.Helper()
	for file, src := range w.weakened {
		assert.NilError(w.t, os.WriteFile(file, src, 0o644))
	}
	clear(w.weakened)
}

// run runs a go command of a run block and holds it to the marker.
func (w *walkthrough) run(c Command, r *Run) {
	w.t.Helper()
	at := where(w.text, w.sec, c.Line)
	out, err := w.goCommand(c.Args[1:])
	var exit *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &exit):
		w.t.Fatalf("%s: %q could not be run: %v", at, c, err)
	case r.Expect == "passes" && err != nil:
		w.t.Errorf("%s: the text says %q passes; it fails:\n%s", at, c, tail(out))
	case r.Expect == "fails" && err == nil:
		w.t.Errorf("%s: the text says %q fails; it passes:\n%s", at, c, tail(out))
	case r.Expect == "fails" && (strings.Contains(out, "[build failed]") || strings.Contains(out, "[setup failed]")):
		w.t.Errorf("%s: the text says %q fails; it does not even build:\n%s", at, c, tail(out))
	case r.Expect == "fails" && !r.Output.MatchString(out):
		w.t.Errorf("%s: %q fails, but its output does not match %q, as the text says it does:\n%s", at, c, r.Output, tail(out))
	}
}

// goCommand runs the go command with args at the copy's root. The
// module's dependencies come from the build cache as for any build; the
// module's own packages are compiled again, in the copy's folder (small,
// and -trimpath would instead build the dependencies anew, once, for a
// minute).
func (w *walkthrough) goCommand(args []string) (string, error) {
	cmd := exec.CommandContext(w.t.Context(), w.goBin, args...)
	cmd.Dir = w.dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// copyModule copies the module at root into dst, less the folders at its
// top whose names begin with a dot (.git, drill's state and the like).
func copyModule(t testing.TB, root, dst string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		switch {
		case rel == ".":
			return nil
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && filepath.Dir(rel) == ".":
			return filepath.SkipDir
		case d.IsDir():
			return os.Mkdir(filepath.Join(dst, rel), 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, info.Mode().Perm())
	})
	assert.NilError(t, err, "copy the module to %s", dst)
}

// hasNonTestGo reports whether dir holds a Go file that is not a test.
func hasNonTestGo(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return slices.ContainsFunc(files, func(f string) bool { return !strings.HasSuffix(f, "_test.go") })
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

// tail is the last lines of a command's output, enough to see why.
func tail(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) > 40 {
		lines = append([]string{"..."}, lines[len(lines)-40:]...)
	}
	return strings.Join(lines, "\n")
}

// TestQuotedWeakeningEditsAreTheCatalogs: in a section that teaches a
// weakening (it has the weakening's drill try line), every unmarked go
// block quotes that weakening's edit, for a learner who makes it by hand.
// Each must occur in the weakening's target as shipped or as the edit
// leaves it; a quote the catalog no longer says sends the learner to make
// an edit nobody grades.
func TestQuotedWeakeningEditsAreTheCatalogs(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	cat, err := weakening.Load(root)
	assert.NilError(t, err)
	quotes := 0
	for _, text := range chapterTexts(t, root) {
		for _, sec := range text.Sections {
			if len(sec.Tries) == 0 {
				continue
			}
			for _, b := range sec.Loose {
				quotes++
				if !quotesAnEdit(t, root, cat, sec.Tries, b.Body) {
					t.Errorf("%s: the go block is in the section that teaches %s, but quotes no edit of it: "+
						"the weakened file holds the block neither as shipped nor as weakened",
						where(text, sec, b.Line), strings.Join(sec.Tries, " and "))
				}
			}
		}
	}
	assert.Assert(t, quotes > 0, "no chapter text quotes a weakening's edit: the sections are no longer found")
}

// quotesAnEdit reports whether body occurs in the target of one of the
// weakenings named, before or after its edit.
func quotesAnEdit(t testing.TB, root string, cat *weakening.Catalog, names []string, body string) bool {
	t.Helper()
	for _, name := range names {
		w, ok := cat.Lookup(name)
		if !ok {
			continue // tools/drill's catalog test reports a try line that names no weakening
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(w.File)))
		assert.NilError(t, err)
		after, err := w.Apply(src)
		if err != nil {
			continue // the catalog's own tests report an edit that does not apply
		}
		if strings.Contains(string(src), body) || strings.Contains(string(after), body) {
			return true
		}
	}
	return false
}

// TestEditsToMakeAreMarked: outside a weakening's section, an unmarked go
// block is an illustration. One whose lead-in ends in "replace", "with" or
// "add" reads like an edit the learner makes, and then it must be marked,
// or nothing would check that it applies and builds.
func TestEditsToMakeAreMarked(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	for _, text := range chapterTexts(t, root) {
		for _, sec := range text.Sections {
			if len(sec.Tries) > 0 {
				continue
			}
			for _, b := range sec.Loose {
				if readsLikeAnEdit(b.Lead) {
					t.Errorf("%s: the go block follows %q, so the learner will type it, but no apply marker says where it goes",
						where(text, sec, b.Line), b.Lead)
				}
			}
		}
	}
}

// readsLikeAnEdit reports whether a block's lead-in line ends in a word
// that asks for an edit.
func readsLikeAnEdit(lead string) bool {
	f := strings.Fields(lead)
	if len(f) == 0 {
		return false
	}
	last := strings.ToLower(strings.Trim(f[len(f)-1], ":,.`"))
	return last == "replace" || last == "with" || last == "add"
}
