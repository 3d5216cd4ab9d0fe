package mutate

// The declaration of layers is held to the tree it declares: a folder
// nobody declared, or a function renamed under its declaration, fails here
// before it can change what a mutant means.

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// repository is the module root of this repository, relative to this package.
const repository = "../../.."

// TestLayersNameWhatTheTreeHas: every folder under internal/ that holds Go
// is in a layer (a new mechanism package cannot be forgotten), every row
// names a folder that holds Go, and every function a row lists (deciding,
// exit status, clamp) exists.
func TestLayersNameWhatTheTreeHas(t *testing.T) {
	t.Parallel()
	assert.NilError(t, Fencelab.check())
	uncovered, err := Fencelab.Uncovered(repository)
	assert.NilError(t, err)
	assert.Assert(t, is.Len(uncovered, 0), "folders under internal/ in no layer of layers.go: %v; declare each one (mechanism, runner, helper or tooling)", uncovered)

	folders, err := goFolders(repository)
	assert.NilError(t, err)
	var declared []string
	for _, p := range Fencelab {
		if !strings.HasSuffix(p.Dir, "/...") {
			assert.Assert(t, slices.Contains(folders, p.Dir), "layers.go declares %s, which holds no Go", p.Dir)
		}
		if p.Mutated() {
			declared = append(declared, p.Dir)
		}
	}
	pkgs, _, err := load(t.Context(), repository, declared)
	assert.NilError(t, err)
	for _, pkg := range pkgs {
		rel := strings.TrimPrefix(pkg.PkgPath, fencelabModule+"/")
		row, _ := Fencelab.Lookup(rel)
		assert.Assert(t, is.Len(row.missing(pkg.Types, pkg.CompiledGoFiles), 0), "layers.go lists functions or files %s does not have (renamed?)", rel)
	}
}

// TestDecidingFunctionsAreTheOnesExcusesWereWrittenFor: the deciding
// functions are those a name rule picked before the declaration existed,
// and chapter 10's, declared with its lock and store; a change to this
// list changes what may be excused, and must be made on purpose.
func TestDecidingFunctionsAreTheOnesExcusesWereWrittenFor(t *testing.T) {
	t.Parallel()
	var got []string
	for _, p := range Fencelab {
		if p.Layer == Mechanism {
			for _, fn := range p.Decides {
				got = append(got, strings.TrimPrefix(p.Dir, "internal/")+" "+fn)
			}
		}
	}
	assert.DeepEqual(t, got, []string{
		"actor Process.AcquireAttempt", "actor Process.AcquireLease", "actor Process.ReleaseLease", "actor Process.decided",
		"actor Process.finish", "actor Process.markRunning", "actor Process.releaseAfterRun",
		"etcdlock Lock.Check", "etcdlock Lock.Fenced", "etcdlock Lock.Put",
		"fencedstore Store.Write", "fencedstore Store.Complete", "fencedstore explain",
		"gate admit",
		"mailbox Mailbox.Claim", "mailbox Mailbox.Complete", "mailbox Mailbox.DeadLetter", "mailbox claimRefusal",
		"queue Queue.Claim", "queue Queue.Finish", "queue claimRefusal",
		"session Store.Claim", "session Store.FinishSession", "session explainFinish", "session readFinishRows", "session release",
	})
}

// TestADeclarationThatNoLongerFitsIsRefused: a folder with Go that no row
// declares is reported, and so is a deciding function the package no
// longer has; the engine refuses to mutate under such a row.
func TestADeclarationThatNoLongerFitsIsRefused(t *testing.T) {
	t.Parallel()
	partial := Tree{{Dir: "internal/ledger", Layer: Mechanism}, {Dir: "internal/store", Layer: Mechanism}}
	uncovered, err := partial.Uncovered(fixture)
	assert.NilError(t, err)
	assert.DeepEqual(t, uncovered, []string{"internal/tool"})

	renamed := Tree{{Dir: "internal/ledger", Layer: Mechanism, Decides: []string{"May", "Ledger.Give"}}}
	pkgs, _, err := load(t.Context(), fixture, []string{"internal/ledger"})
	assert.NilError(t, err)
	assert.DeepEqual(t, renamed[0].missing(pkgs[0].Types, pkgs[0].CompiledGoFiles), []string{"Ledger.Give"})
	root, err := filepath.Abs(fixture)
	assert.NilError(t, err)
	_, err = generate(root, renamed, pkgs[0])
	assert.ErrorIs(t, err, errLayers)
	assert.ErrorContains(t, err, "Ledger.Give")

	twice := Tree{{Dir: "internal/ledger", Layer: Mechanism}, {Dir: "internal/ledger", Layer: Runner}}
	assert.ErrorIs(t, twice.check(), errLayers)
}

// TestLookupPrefersTheFolderItself: a /... row covers the folders beneath
// it that no row names; a row naming a folder wins over it.
func TestLookupPrefersTheFolderItself(t *testing.T) {
	t.Parallel()
	for dir, want := range map[string]bool{"internal/course/drill": true, "internal/course/mutate": false, "internal/course": false} {
		row, ok := Fencelab.Lookup(dir)
		assert.Assert(t, ok, "%s is in no layer", dir)
		assert.Equal(t, row.Mutated(), want, "is %s mutated?", dir)
	}
	_, ok := Fencelab.Lookup("internal/nosuch")
	assert.Assert(t, !ok, "a folder nobody declared has a layer")
}

// TestTheFrameIsJudgedByTestsAlone: a runner package declared TestsOnly
// (the command line every script goes through) is judged by the test
// packages that import it, and by no chapter's scripts; an experiment a
// chapter's scripts run is still judged by them.
func TestTheFrameIsJudgedByTestsAlone(t *testing.T) {
	t.Parallel()
	tree := slices.Clone(Fencelab)
	for i, p := range tree {
		if p.Dir == "internal/runner/mailboxlab" {
			tree[i].NotMutated = "" // mutated for this test, so its judges are listed
		}
	}
	r := &variant.Runner{Root: repository}
	t.Cleanup(func() { assert.NilError(t, r.Close()) })
	l, err := listPackages(t.Context(), r, fencelabModule, tree)
	assert.NilError(t, err)
	judges, err := l.judges()
	assert.NilError(t, err)
	byTests, byScripts := 0, 0
	for _, j := range judges {
		assert.Check(t, j.uses["internal/runner/cli"] != reachScripts, "%s judges the frame by its scripts", j.Name)
		if j.uses["internal/runner/cli"] == reachTests {
			byTests++
		}
		if j.uses["internal/runner/mailboxlab"] == reachScripts {
			byScripts++
		}
	}
	assert.Check(t, byTests >= 2, "the frame's own tests and internal/runner's judge it: %d judges", byTests)
	assert.Check(t, byScripts > 0, "no chapter's scripts judge the claim experiment")
}

// TestAFileDeclaredNotMutatedGetsNoMutants: a file a row declares not
// mutated yields no mutant, while the package's other files still do; a
// row naming a file the package does not have is refused, as a renamed
// function is.
func TestAFileDeclaredNotMutatedGetsNoMutants(t *testing.T) {
	t.Parallel()
	const skipped = "testdata/mutate/internal/ledger/stamp.go"
	inFile := func(ms []*Mutant, file string) int {
		n := 0
		for _, m := range ms {
			if strings.HasSuffix(file, m.File) {
				n++
			}
		}
		return n
	}
	all := generateIn(t, fixture, "internal/ledger")
	assert.Assert(t, inFile(all, skipped) > 0, "the fixture's stamp.go has no mutant to leave out")

	tree := slices.Clone(fixtureTree)
	tree[0].FilesNotMutated = map[string]string{"stamp.go": "reached only by another chapter"}
	some := generateWith(t, fixture, "internal/ledger", tree)
	assert.Equal(t, inFile(some, skipped), 0, "mutants of a file declared not mutated")
	assert.Equal(t, len(some), len(all)-inFile(all, skipped), "the package's other files lost mutants")

	tree[0].FilesNotMutated = map[string]string{"nosuch.go": "renamed since"}
	pkgs, _, err := load(t.Context(), fixture, []string{"internal/ledger"})
	assert.NilError(t, err)
	root, err := filepath.Abs(fixture)
	assert.NilError(t, err)
	_, err = generate(root, tree, pkgs[0])
	assert.ErrorIs(t, err, errLayers)
	assert.ErrorContains(t, err, "nosuch.go")
}
