package exercise

// These tests hold the repository's own exercises to their rules without
// running the go command: every file is usable, every edit a start makes
// can be made, each chapter offers every kind, and each chapter's text
// names its exercises. The full proof (each starts red for its reason and
// its reference turns it green) is proof_test.go, behind -proof.

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/golden"

	"github.com/fencelab/fencelab/internal/course/weakening"
)

// repoSet loads the exercises of the repository this test is part of.
func repoSet(t *testing.T) *Set {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	assert.NilError(t, err)
	cat, err := weakening.Load(root)
	assert.NilError(t, err)
	set, err := Load(cat)
	assert.NilError(t, err)
	return set
}

func TestEveryRepositoryExerciseIsUsable(t *testing.T) {
	t.Parallel()
	set := repoSet(t)
	for _, b := range set.Broken {
		t.Errorf("%s: %v", b.Path, b.Err)
	}
	for _, e := range set.Exercises {
		switch e.Kind {
		case Build:
			src, err := os.ReadFile(filepath.Join(set.Root, filepath.FromSlash(e.File)))
			assert.NilError(t, err)
			if _, err := stubbed(e.File, src, e.Func, e.Stub); err != nil {
				t.Errorf("%s: the stub cannot be put in: %v", e.Path, err)
			}
			if _, _, err := sectionLines(set.Root, "chapters/"+e.Chapter+"/README.md", e.Section); err != nil {
				t.Errorf("%s: the third hint points nowhere: %v", e.Path, err)
			}
		case Test:
			ref, err := e.Reference(set.Root)
			if err != nil {
				t.Errorf("%s: %v", e.Path, err)
				continue
			}
			names, err := learnerTests(e.LearnerFile(), ref)
			assert.NilError(t, err, "%s: the reference does not parse", e.Path)
			var want []string
			for _, n := range e.Withhold {
				want = append(want, ReferenceName(n))
			}
			slices.Sort(want)
			assert.Check(t, cmp.DeepEqual(slices.Sorted(slices.Values(names)), want), "%s: the reference holds other tests than those withheld", e.Path)
			if _, _, err := regionLines(set.Root, e); err != nil {
				t.Errorf("%s: the third hint points nowhere: %v", e.Path, err)
			}
			if _, err := learnerTests("weak_test.go", []byte(e.Weak)); err != nil {
				t.Errorf("%s: the weak learner test does not parse: %v", e.Path, err)
			}
		}
	}
}

func TestEveryChapterOffersEachKind(t *testing.T) {
	t.Parallel()
	set := repoSet(t)
	// Chapter 1's mechanism, the claim, is chapter 3's to build; chapter 9
	// owns no mechanism, so it offers a fix exercise only.
	for _, ch := range []string{"ch02", "ch03", "ch04", "ch05", "ch06", "ch07", "ch08"} {
		c, ok := set.Catalog.Chapter(ch)
		if !ok {
			t.Errorf("no chapter %s", ch)
			continue
		}
		for _, k := range Kinds {
			if !slices.ContainsFunc(set.InChapter(c.Name), func(e *Exercise) bool { return e.Kind == k }) {
				t.Errorf("chapters/%s has no %s exercise in %s/", c.Name, k, Dir)
			}
		}
	}
}

func TestChapterReadmesNameTheirExercises(t *testing.T) {
	t.Parallel()
	set := repoSet(t)
	for _, ch := range set.Catalog.Chapters {
		data, err := os.ReadFile(filepath.Join(set.Root, "chapters", ch.Name, "README.md"))
		if err != nil {
			if len(set.InChapter(ch.Name)) > 0 {
				t.Errorf("chapters/%s has exercises but no README.md", ch.Name)
			}
			continue
		}
		named := StartNames(data)
		for _, p := range UnnamedInText(set, ch.Name) {
			t.Error(p)
		}
		for _, n := range named {
			if e, ok := set.Lookup(n); !ok || e.Chapter != ch.Name {
				t.Errorf("chapters/%s/README.md says %q, but %s is no exercise of the chapter", ch.Name, "go run ./tools/drill start "+n, n)
			}
		}
	}
}

// TestShippedListMatchesTheTree holds chapters/shipped.sum to the tree:
// every file an exercise touches, with the blob id of its bytes as they
// are in the repository. Start, reset and grade trust that list to tell
// the shipped code from a learner's; after changing one of those files,
// run this test with -update.
// The drill fixture (testdata/drill) keeps a list of its own.
func TestShippedListMatchesTheTree(t *testing.T) {
	t.Parallel()
	for _, root := range []string{filepath.Join("..", "..", ".."), filepath.Join("..", "..", "..", "testdata", "drill")} {
		root, err := filepath.Abs(root)
		assert.NilError(t, err)
		cat, err := weakening.Load(root)
		assert.NilError(t, err)
		set, err := Load(cat)
		assert.NilError(t, err)
		want, err := ShippedOf(set)
		assert.NilError(t, err)
		file := filepath.Join(set.Root, filepath.FromSlash(ShippedFile))
		if golden.FlagUpdate() {
			assert.NilError(t, os.WriteFile(file, want.Format(), 0o644))
		}
		got, err := LoadShipped(set.Root)
		assert.NilError(t, err)
		assert.Check(t, cmp.DeepEqual(got, want),
			"%s is not the shipped code of the files the exercises touch; after changing them on purpose, run: go test ./internal/course/exercise/ -run TestShippedListMatchesTheTree -update", file)
	}
}

// TestCourseListMatchesTheTree: chapters/course.sum names every file a
// grade builds from as the course holds it now, so a grade run without
// --course can name each course file a learner's fork changed. After
// changing the course, run this test with -update.
func TestCourseListMatchesTheTree(t *testing.T) {
	// The fixture first: its list is a file of the course's testdata.
	for _, root := range []string{filepath.Join("..", "..", "..", "testdata", "drill"), filepath.Join("..", "..", "..")} {
		root, err := filepath.Abs(root)
		assert.NilError(t, err)
		if golden.FlagUpdate() {
			want, err := CourseSumOf(root)
			assert.NilError(t, err)
			assert.NilError(t, os.WriteFile(filepath.Join(root, filepath.FromSlash(CourseSumFile)), FormatCourseSum(want), 0o644))
		}
		changed, err := ChangedCourseFiles(root)
		assert.NilError(t, err)
		assert.Check(t, cmp.Len(changed, 0),
			"%s does not match the course files %s; after changing them on purpose, run: go test ./internal/course/exercise/ -run TestCourseListMatchesTheTree -update",
			CourseSumFile, strings.Join(changed, " "))
	}
}

// TestChapterTextsDoNotGiveExercisesAway reads each chapter's text up to
// its exercises, as a learner does, and fails where it prints an answer:
// the lines a fix exercise's repair puts back, or two lines or more of the
// body a build exercise asks for. The text may teach the idea; it may not
// hand over the code.
func TestChapterTextsDoNotGiveExercisesAway(t *testing.T) {
	t.Parallel()
	set := repoSet(t)
	var faults []string
	for _, e := range set.Exercises {
		if e.Kind == Fix {
			faults = append(faults, e.Fault)
		}
	}
	broken, err := breakAll(t.Context(), set, faults)
	assert.NilError(t, err)
	for _, e := range set.Exercises {
		readme := "chapters/" + e.Chapter + "/README.md"
		text, err := os.ReadFile(filepath.Join(set.Root, filepath.FromSlash(readme)))
		assert.NilError(t, err)
		before := textLines(beforeExercises(string(text)))
		switch e.Kind {
		case Fix:
			b := broken[e.Fault]
			for _, l := range repairLines(b) {
				if before[l] {
					t.Errorf("%s prints, before its exercises, the repair of %s: %q", readme, e.Name, l)
				}
			}
		case Build:
			src, err := os.ReadFile(filepath.Join(set.Root, filepath.FromSlash(e.File)))
			assert.NilError(t, err)
			var given []string
			for _, l := range bodyLines(t, e.File, src, e.Func) {
				if before[l] {
					given = append(given, l)
				}
			}
			if len(given) >= 2 {
				t.Errorf("%s prints, before its exercises, %d lines of the body %s asks for: %q", readme, len(given), e.Name, given)
			}
		}
	}
}

// exercisesHeading is the heading of a chapter's exercises section.
var exercisesHeading = regexp.MustCompile(`(?m)^#+ Exercises`)

// beforeExercises returns a chapter text up to its exercises section.
func beforeExercises(text string) string {
	if loc := exercisesHeading.FindStringIndex(text); loc != nil {
		return text[:loc[0]]
	}
	return text
}

// norm is a line of code or text with its white space collapsed.
func norm(l string) string { return strings.Join(strings.Fields(l), " ") }

// argumentList matches a line that only lists names: the arguments of a
// call, which say nothing on their own.
var argumentList = regexp.MustCompile(`^[\w\s,.()]*$`)

// substantive reports whether a normalized line of code says something an
// answer could be read from: not a brace, an error return, a comment, a
// list of arguments, a fragment too short to mean anything alone.
func substantive(l string) bool {
	switch l {
	case "return nil", "return err", "if err != nil {", "} else {":
		return false
	}
	return len(l) >= 16 && !strings.HasPrefix(l, "//") && !argumentList.MatchString(l)
}

// textLines returns the normalized lines of text, as a set.
func textLines(text string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		out[norm(l)] = true
	}
	return out
}

// repairLines returns the substantive lines of the shipped file that the
// fault changes: what a learner's repair puts back.
func repairLines(b breakage) []string {
	shipped := strings.Split(string(b.Shipped), "\n")
	brokenSet := textLines(string(b.Broken))
	var out []string
	for _, l := range shipped {
		if n := norm(l); substantive(n) && !brokenSet[n] {
			out = append(out, n)
		}
	}
	return out
}

// bodyLines returns the substantive lines of function name's body in src.
func bodyLines(t *testing.T, file string, src []byte, name string) []string {
	t.Helper()
	fset, f, err := parseGo(file, src)
	assert.NilError(t, err)
	fd, ok := findFunc(f, name)
	assert.Assert(t, ok, "%s declares no %s", file, name)
	body := string(src[fset.Position(fd.Body.Lbrace).Offset+1 : fset.Position(fd.Body.Rbrace).Offset])
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if n := norm(l); substantive(n) {
			out = append(out, n)
		}
	}
	return out
}

// TestNoExerciseFileNamesItsFaultInPlainText: a learner reads the exercise
// files, and a fault named there is one `drill show` or one search from
// its lines. Each fix exercise holds its fault encoded, and it decodes to
// a weakening or a mutant the course knows.
func TestNoExerciseFileNamesItsFaultInPlainText(t *testing.T) {
	t.Parallel()
	set := repoSet(t)
	for _, e := range set.Exercises {
		if e.Kind != Fix {
			continue
		}
		data, err := os.ReadFile(filepath.Join(set.Root, filepath.FromSlash(e.Path)))
		assert.NilError(t, err)
		assert.Check(t, !strings.Contains(string(data), e.Fault), "%s names its fault %s in plain text; write it as fault: %s", e.Path, e.Fault, HideFault(e.Fault))
		_, err = set.ShippedFiles(e)
		assert.Check(t, err == nil, "%s: its fault %s is no weakening or mutant of the course", e.Path, e.Fault)
	}
}

// faultTells are what a generated fault looks like and code a person
// wrote does not: a condition short-circuited by a constant.
var faultTells = regexp.MustCompile(`\btrue \|\||\|\| true\b|\bfalse &&|&& false\b|\b1 OR\b|\bOR 1\b`)

// TestInjectedFaultsReadLikeCodeAPersonWrote: the lines a fix exercise's
// fault changes must not give it away at a glance; a learner finds it by
// what the tests say, not by searching for "true ||".
func TestInjectedFaultsReadLikeCodeAPersonWrote(t *testing.T) {
	t.Parallel()
	set := repoSet(t)
	var ids []string
	for _, e := range set.Exercises {
		if e.Kind == Fix {
			ids = append(ids, e.Fault)
		}
	}
	broken, err := breakAll(t.Context(), set, ids)
	assert.NilError(t, err)
	for _, e := range set.Exercises {
		if e.Kind != Fix {
			continue
		}
		b := broken[e.Fault]
		start, end := b.region()
		first, last := lineSpan(b.Broken, start, max(end, start+1))
		lines := strings.Split(string(b.Broken), "\n")[first-1 : last]
		for _, l := range lines {
			assert.Check(t, !faultTells.MatchString(l), "%s: its fault reads as a fault: %q", e.Name, strings.TrimSpace(l))
		}
	}
}
