package mutate

// This file declares what every folder under internal/ is to the engine:
// which packages it mutates, which of their functions decide who may act,
// which set the exit status of a process, and which folders are test-side
// code. Nothing here is guessed from a name: a function renamed or a
// folder added makes TestLayersNameWhatTheTreeHas fail until this table
// says what it is.

import (
	"errors"
	"fmt"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// Layer is what a package folder is to the engine.
type Layer string

// The layers.
const (
	// Mechanism: the packages that decide authority. Every operator
	// mutates them, and the chapters whose tests use them judge.
	Mechanism Layer = "mechanism"
	// Runner: the fencelab runner. Every operator mutates it, and the
	// chapters' scripts and tests and the runner's own tests judge.
	Runner Layer = "runner"
	// Helper: a test helper beside a mechanism package. It is never
	// mutated; a change to it is a change to the tests of every chapter
	// that uses it.
	Helper Layer = "helper"
	// Tooling: the course tooling. Only the exit statuses its Exits
	// functions return are mutated, and its own tests judge.
	Tooling Layer = "tooling"
)

// Package is one row of the declaration: a package folder, or with a /...
// suffix every folder beneath one that no other row names.
type Package struct {
	// Dir is the folder relative to the module root: internal/mailbox.
	Dir   string
	Layer Layer
	// Decides lists the functions that decide who may act (Mailbox.Claim
	// for a method, claimRefusal for a function): a change to one of their
	// conditions, or to the SQL that writes, can never be excused as
	// unreachable.
	Decides []string
	// Exits lists the functions whose int result is the exit status of a
	// process: their returned constants get exit-status mutants.
	Exits []string
	// Clamps maps a function of this package that clamps a sum to the
	// sum it guards, written from the call's arguments: a call to it
	// becomes the unclamped sum.
	Clamps map[string]func(args []string) string
	// NotMutated, if set, says why a package with production code is not
	// mutated.
	NotMutated string
	// FilesNotMutated maps a file of a mutated package (its base name:
	// etcd.go) to why that file alone is not mutated: the part of a
	// package that only another chapter's processes reach.
	FilesNotMutated map[string]string
	// TestsOnly, if set, says why only the test packages that import this
	// runner package judge its mutants, and the chapters' scripts do not.
	// It can only leave more mutants alive, never kill one: a survivor
	// needs a test of its own, or an excuse under the usual rules.
	TestsOnly string
	// Tests, for a tooling package, is the -test.run pattern of its own
	// tests that judge its exit statuses: the others are slow, or wait on
	// the clock, and state nothing about an exit status.
	Tests string
}

// Tree is the declaration of one module's folders under internal/.
type Tree []Package

// Fencelab is the declaration of this repository. A package whose
// functions decide authority names them all here; the set below is the
// one a name rule chose before this table existed, kept so that no
// excuse changed meaning.
var Fencelab = Tree{
	{Dir: "internal/actor", Layer: Mechanism, Decides: []string{
		"Process.AcquireAttempt", "Process.AcquireLease", "Process.ReleaseLease", "Process.decided",
		"Process.finish", "Process.markRunning", "Process.releaseAfterRun"}},
	{Dir: "internal/actor/actortest", Layer: Helper},
	{Dir: "internal/clock", Layer: Mechanism, Clamps: map[string]func([]string) string{
		"Expiry": func(a []string) string { return a[0] + " + " + a[1] }}},
	// Chapter 10's lock and store: the lock says who holds it, the store
	// decides which write lands. (accept only reads back what its
	// statement did, and held only reads the key Lock just wrote.)
	{Dir: "internal/etcdlock", Layer: Mechanism, Decides: []string{"Lock.Check", "Lock.Fenced", "Lock.Put"}},
	{Dir: "internal/fencedstore", Layer: Mechanism, Decides: []string{"Store.Write", "Store.Complete", "explain"}},
	{Dir: "internal/fencedstore/fencedstoretest", Layer: Helper},
	{Dir: "internal/gate", Layer: Mechanism, Decides: []string{"admit"}},
	{Dir: "internal/gate/gatetest", Layer: Helper},
	{Dir: "internal/identity", Layer: Mechanism},
	{Dir: "internal/mailbox", Layer: Mechanism, Decides: []string{
		"Mailbox.Claim", "Mailbox.Complete", "Mailbox.DeadLetter", "claimRefusal"}},
	{Dir: "internal/mailbox/mailboxtest", Layer: Helper},
	{Dir: "internal/queue", Layer: Mechanism, Decides: []string{"Queue.Claim", "Queue.Finish", "claimRefusal"}},
	{Dir: "internal/queue/queuetest", Layer: Helper},
	{Dir: "internal/session", Layer: Mechanism, Decides: []string{
		"Store.Claim", "Store.FinishSession", "explainFinish", "readFinishRows", "release"}},
	{Dir: "internal/session/sessiontest", Layer: Helper},
	{Dir: "internal/sqlitedb", Layer: Mechanism},
	{Dir: "internal/sqlitedb/sqlitedbtest", Layer: Helper},
	{Dir: "internal/token", Layer: Mechanism},
	{Dir: "internal/token/tokentest", Layer: Helper},

	{Dir: "internal/runner", Layer: Runner},
	{Dir: "internal/runner/actorlab", Layer: Runner},
	// The audit is the oracle chapter 9 trusts: what it counts as a
	// violation decides whether a torture run passes.
	{Dir: "internal/runner/audit", Layer: Runner, Decides: []string{
		"Audit", "audit.readLogs", "audit.checkMessage", "audit.checkBudget", "audit.checkOpen",
		"audit.findings", "Findings.Clean"}},
	{Dir: "internal/runner/cli", Layer: Runner, Exits: []string{"Main", "run", "printResult", "Misuse"}, TestsOnly: frameByTests},
	{Dir: "internal/runner/companion", Layer: Runner, NotMutated: etcdSide},
	{Dir: "internal/runner/etcdmember", Layer: Runner, NotMutated: etcdSide},
	{Dir: "internal/runner/etcdroles", Layer: Runner, NotMutated: etcdSide},
	{Dir: "internal/runner/faultproxy", Layer: Runner, NotMutated: etcdSide + ", and its own tests (package faultproxy) cut and restore a connection"},
	{Dir: "internal/runner/fencinglab", Layer: Runner},
	// The history experiment's recorder and its sequential specifications:
	// a specification that accepts a wrong answer is a check that cannot
	// fail, so its mutants are judged like the mechanism's.
	{Dir: "internal/runner/history", Layer: Runner},
	{Dir: "internal/runner/historylab", Layer: Runner},
	{Dir: "internal/runner/historylab/calls", Layer: Runner},
	{Dir: "internal/runner/lockservicelab", Layer: Runner, NotMutated: etcdSide},
	{Dir: "internal/runner/mailboxlab", Layer: Runner},
	{Dir: "internal/runner/sessionlab", Layer: Runner},
	{Dir: "internal/runner/timeline", Layer: Runner, NotMutated: "it lays out pictures: " +
		"chapters/internal/pictures holds every picture whole, and a mutant of its geometry moves a pixel no reader relies on"},
	// Torture's etcd side (--lock etcd) runs only under chapter 10's
	// binaries, which link etcd; its mailbox side is chapter 9's.
	{Dir: "internal/runner/torturelab", Layer: Runner, FilesNotMutated: map[string]string{
		"etcd.go": etcdSide, "etcdresult.go": etcdSide, "etcdworker.go": etcdSide}},
	{Dir: "internal/runner/worker", Layer: Runner, Exits: []string{"Main"}, TestsOnly: workerByTests},

	{Dir: "internal/course/...", Layer: Tooling},
	{Dir: "internal/course/drill", Layer: Tooling, Exits: []string{"Tool.Run"},
		Tests: "^(TestMisuseExitsTwoWithOneLineNamingWhatIsAllowed|TestNoArgumentsPrintsUsageAndExitsTwo|TestHelpExitsZero|" +
			"TestCheckExitsZeroOnlyWhenEverythingIsCaught|TestApplyRefusesASecondWeakening|TestInterruptedCommandsChangeNothing)$"},
}

// workerByTests is why the worker plumbing is judged by tests alone.
const workerByTests = "every experiment starts its workers through it, so a script judge would run every chapter's " +
	"processes for each mutant; its own tests start real worker processes and in-process ones (handshake, link, " +
	"kill, stop, a stuck or dead worker), and the runner's and chapters 5 and 6's tests run experiments on it"

// frameByTests is why the runner's frame is judged by tests alone.
const frameByTests = "every chapter's scripts start the runner through it, so a script judge would run every chapter's " +
	"processes for each mutant; its own tests and internal/runner's drive Main, misuse, the run folder and interrupts in-process"

// etcdSide is why the runner's chapter 10 packages are not mutated.
const etcdSide = "it runs etcd, and only chapter 10's binaries, which link etcd's server, reach it: " +
	"each mutant would cost a relink of them and a run of the chapter, about half a minute on two cores; " +
	"chapter 10's named tests and lockservice scripts hold what it does"

// fencelabModule is the module Fencelab declares.
const fencelabModule = "github.com/fencelab/fencelab"

// errLayers is wrapped by every error about the declaration itself.
var errLayers = errors.New("mutate: the layer declaration")

// TreeOf returns the declaration of the module at root: Fencelab for this
// repository. A module it does not declare (the engine's fixtures) gets
// the plainest one: every folder directly under internal/ that holds Go
// is a mechanism package, and each folder below one is its helper.
func TreeOf(root string) (Tree, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("mutate: %w", err)
	}
	if modfile.ModulePath(data) == fencelabModule {
		return Fencelab, nil
	}
	dirs, err := goFolders(root)
	if err != nil {
		return nil, err
	}
	var t Tree
	for _, d := range dirs {
		layer := Mechanism
		if strings.Count(d, "/") > 1 {
			layer = Helper
		}
		t = append(t, Package{Dir: d, Layer: layer})
	}
	return t, nil
}

// goFolders returns every folder under root's internal/ that holds a Go
// file, relative to root and slash-separated, sorted.
func goFolders(root string) ([]string, error) {
	var out []string
	base := filepath.Join(root, "internal")
	err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != base && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(d.Name(), ".go"):
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); !slices.Contains(out, rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("mutate: the folders under internal/: %w", err)
	}
	slices.Sort(out)
	return out, nil
}

// MechanismPackages returns the mechanism's package folders of the module
// at root, relative to it and slash-separated (internal/mailbox, ...),
// sorted.
func MechanismPackages(root string) ([]string, error) {
	t, err := TreeOf(root)
	if err != nil {
		return nil, err
	}
	return t.Dirs(Mechanism), nil
}

// Lookup returns the row that declares the folder dir: the row naming it,
// else the nearest /... row above it.
func (t Tree) Lookup(dir string) (Package, bool) {
	best, found := Package{}, false
	for _, p := range t {
		switch {
		case p.Dir == dir:
			return p, true
		case strings.HasSuffix(p.Dir, "/..."):
			base := strings.TrimSuffix(p.Dir, "/...")
			if (dir == base || strings.HasPrefix(dir, base+"/")) && (!found || len(base) > len(best.Dir)) {
				best, found = p, true
			}
		}
	}
	return best, found
}

// Mutated reports whether the engine mutates p at all.
func (p Package) Mutated() bool {
	switch {
	case p.NotMutated != "" || strings.HasSuffix(p.Dir, "/..."):
		return false
	case p.Layer == Mechanism || p.Layer == Runner:
		return true
	case p.Layer == Tooling:
		return len(p.Exits) > 0
	}
	return false
}

// decides reports whether fn (Mailbox.Claim, claimRefusal) decides who may act.
func (p Package) decides(fn string) bool { return slices.Contains(p.Decides, fn) }

// exits reports whether fn returns a process's exit status.
func (p Package) exits(fn string) bool { return slices.Contains(p.Exits, fn) }

// Dirs returns the folders of the rows in layer that the engine mutates,
// sorted.
func (t Tree) Dirs(layers ...Layer) []string {
	var out []string
	for _, p := range t {
		if slices.Contains(layers, p.Layer) && p.Mutated() {
			out = append(out, p.Dir)
		}
	}
	slices.Sort(out)
	return out
}

// check reports rows that cannot mean anything: a folder named twice, two
// mutated packages whose IDs would start alike, a function listed in a
// layer that does not use it.
func (t Tree) check() error {
	seen := map[string]bool{}
	short := map[string]string{}
	for _, p := range t {
		if seen[p.Dir] {
			return fmt.Errorf("%w: %s is declared twice", errLayers, p.Dir)
		}
		seen[p.Dir] = true
		if p.Mutated() {
			if other, ok := short[path.Base(p.Dir)]; ok {
				return fmt.Errorf("%w: %s and %s would give their mutants the same ID prefix", errLayers, other, p.Dir)
			}
			short[path.Base(p.Dir)] = p.Dir
		}
		if p.Layer == Tooling && (len(p.Decides) > 0 || len(p.Clamps) > 0) {
			return fmt.Errorf("%w: %s: only exit statuses of the tooling are mutated", errLayers, p.Dir)
		}
	}
	return nil
}

// Uncovered returns the folders under root's internal/ that hold Go and
// that no row of t declares, sorted: a package nobody said what it is.
func (t Tree) Uncovered(root string) ([]string, error) {
	dirs, err := goFolders(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range dirs {
		if _, ok := t.Lookup(d); !ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// missing returns the functions p declares (Decides, Exits, Clamps) that
// pkg does not have, and the files it does not mutate that pkg does not
// have: a function or a file renamed or removed since.
func (p Package) missing(pkg *types.Package, files []string) []string {
	names := slices.Concat(p.Decides, p.Exits)
	for name := range p.Clamps {
		names = append(names, name)
	}
	var out []string
	for _, name := range names {
		if !hasFunc(pkg, name) {
			out = append(out, name)
		}
	}
	for name := range p.FilesNotMutated {
		if !slices.ContainsFunc(files, func(f string) bool { return filepath.Base(f) == name }) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// hasFunc reports whether pkg has the function name, or the method
// Type.Method.
func hasFunc(pkg *types.Package, name string) bool {
	recv, method, isMethod := strings.Cut(name, ".")
	if !isMethod {
		_, ok := pkg.Scope().Lookup(name).(*types.Func)
		return ok
	}
	tn, ok := pkg.Scope().Lookup(recv).(*types.TypeName)
	if !ok {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, method)
	_, ok = obj.(*types.Func)
	return ok
}
