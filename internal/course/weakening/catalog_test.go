package weakening

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// fixture is the drill checker's fixture module (a module of its own, so
// the main module's go command ignores it).
const fixture = "../../../testdata/drill"

func TestLoadReadsEveryChapterOfTheFixture(t *testing.T) {
	t.Parallel()
	cat, err := Load(fixture)
	assert.NilError(t, err)

	var names []string
	for _, ch := range cat.Chapters {
		names = append(names, ch.Name)
	}
	assert.DeepEqual(t, names, []string{"ch01_counter", "ch02_red", "ch03_green"})

	ch, ok := cat.Chapter("ch01")
	assert.Assert(t, ok, "Chapter(ch01): the short form must name ch01_counter")
	byFolder, _ := cat.Chapter("ch01_counter")
	assert.Check(t, ch == byFolder, "the short form and the folder name must name the same chapter")

	var good []string
	for _, w := range ch.Weakenings {
		good = append(good, w.Name)
	}
	assert.Check(t, cmp.DeepEqual(good, []string{"breaks-build", "ceiling-off-by-one", "label-changes", "missing-file", "never-settles",
		"no-such-test", "not-durable", "repeated-before", "stale-before", "wrong-pattern"}))
	assert.Assert(t, cmp.Len(ch.Broken, 1), "outside-internal breaks a rule and must be set aside")
	assert.Check(t, cmp.Equal(ch.Broken[0].Name, "outside-internal"))
	assert.Check(t, cmp.ErrorIs(ch.Broken[0].Err, ErrMalformed), "outside-internal: %v; want ErrMalformed", ch.Broken[0].Err)
	assert.Check(t, cmp.Contains(ch.Excused, "TestLabelIsNotEmpty"), "the excuse file's test")

	_, ok = cat.Lookup("outside-internal")
	assert.Check(t, !ok, "Lookup must not hand out a broken entry")
	_, ok = cat.LookupBroken("outside-internal")
	assert.Check(t, ok, "LookupBroken must find it, so the tool can say why")
}

func TestLoadSetsAsideNamesUsedTwice(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	entry := "A mistake.\n\nfile: internal/a/a.go\ntests: TestA\n-- before --\na\n-- after --\nb\n"
	for _, ch := range []string{"ch01_one", "ch02_two"} {
		dir := filepath.Join(root, "chapters", ch, "weakenings")
		assert.NilError(t, os.MkdirAll(dir, 0o755))
		assert.NilError(t, os.WriteFile(filepath.Join(dir, "same-name.txtar"), []byte(entry), 0o644))
	}
	cat, err := Load(root)
	assert.NilError(t, err)
	for _, ch := range cat.Chapters {
		assert.Check(t, cmp.Len(ch.Weakenings, 0), "%s: a name used in two chapters must not be usable in either", ch.Name)
		assert.Assert(t, cmp.Len(ch.Broken, 1))
		assert.Check(t, cmp.ErrorIs(ch.Broken[0].Err, ErrDuplicateName), "%s: %v; want ErrDuplicateName", ch.Name, ch.Broken[0].Err)
	}
}

// TestReadmeQuotesMatchTheCatalog holds every weakening edit a chapter
// README quotes (the file, the text to replace and its replacement) to
// the catalog file it copies: a quote the catalog no longer says would
// send a learner to make an edit nobody grades.
func TestReadmeQuotesMatchTheCatalog(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	assert.NilError(t, err)
	cat, err := Load(root)
	assert.NilError(t, err)
	quotes := 0
	for _, ch := range cat.Chapters {
		readme := filepath.Join(root, ChaptersDir, ch.Name, "README.md")
		data, err := os.ReadFile(readme)
		if err != nil {
			continue
		}
		for _, q := range Quotes(data) {
			quotes++
			where := fmt.Sprintf("%s/%s/README.md:%d", ChaptersDir, ch.Name, q.Line)
			w, ok := cat.Lookup(q.Weakening)
			if !ok {
				t.Errorf("%s quotes an edit after 'drill try %s', which is no weakening", where, q.Weakening)
				continue
			}
			if q.File != w.File {
				t.Errorf("%s quotes %s's edit in %s; the catalog edits %s", where, w.Name, q.File, w.File)
			}
			if !slices.ContainsFunc(w.Edits, func(e Edit) bool { return e.Before == q.Before && e.After == q.After }) {
				t.Errorf("%s quotes an edit of %s that its catalog file %s does not make", where, w.Name, w.Path)
			}
		}
	}
	assert.Assert(t, quotes > 0, "no chapter README quotes an edit: the pattern no longer finds them")
}
