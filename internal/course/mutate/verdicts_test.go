package mutate

// Verdicts carry over from run to run: a run re-judges only what changed,
// builds nothing when nothing did, never trusts an entry whose key does not
// hold, and a sample of reused verdicts judged again catches one that lies.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// measure runs the engine on the fixture copy at root over the ledger and
// returns the report and what it logged.
func measure(t *testing.T, root string, cfg Config) (*Report, string) {
	t.Helper()
	r := &variant.Runner{Root: root, Jobs: 2}
	t.Cleanup(func() { assert.NilError(t, r.Close()) })
	var log bytes.Buffer
	cfg.Runner, cfg.Tree, cfg.Packages, cfg.Log = r, fixtureTree, []string{"internal/ledger"}, &log
	rep, err := Run(t.Context(), cfg)
	assert.NilError(t, err)
	return rep, log.String()
}

// judgedOnce is a fixture copy the engine has measured once, shared by
// the tests below: each starts from a copy of it, its verdicts stored.
var judgedOnce struct {
	sync.Once
	dir    string
	report *Report
	err    error
}

// judgedFixture returns a fresh copy of the once-measured fixture and the
// report of that first measurement.
func judgedFixture(t *testing.T) (string, *Report) {
	t.Helper()
	judgedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mutate-judged-")
		if err != nil {
			judgedOnce.err = err
			return
		}
		judgedOnce.dir = filepath.Join(dir, "fixture")
		if judgedOnce.err = os.CopyFS(judgedOnce.dir, os.DirFS(fixture)); judgedOnce.err != nil {
			return
		}
		r := &variant.Runner{Root: judgedOnce.dir, Jobs: 2}
		defer r.Close()
		judgedOnce.report, judgedOnce.err = Run(t.Context(), Config{Runner: r, Tree: fixtureTree, Packages: []string{"internal/ledger"}})
	})
	assert.NilError(t, judgedOnce.err)
	root := filepath.Join(t.TempDir(), "fixture")
	assert.NilError(t, os.CopyFS(root, os.DirFS(judgedOnce.dir)))
	return root, judgedOnce.report
}

// judged returns the IDs of the mutants a run judged (not reused), and
// every verdict by ID.
func judged(rep *Report) (ids []string, verdicts map[string]Verdict) {
	verdicts = map[string]Verdict{}
	for _, r := range rep.Mutants {
		verdicts[r.ID] = r.Verdict
		if !r.Reused && r.Verdict != Invalid {
			ids = append(ids, r.ID)
		}
	}
	return ids, verdicts
}

// edit replaces old by new in the fixture copy's file rel.
func edit(t *testing.T, root, rel, old, new string) {
	t.Helper()
	name := filepath.Join(root, filepath.FromSlash(rel))
	src, err := os.ReadFile(name)
	assert.NilError(t, err)
	assert.Assert(t, strings.Contains(string(src), old), "%s no longer holds %q", rel, old)
	assert.NilError(t, os.WriteFile(name, []byte(strings.Replace(string(src), old, new, 1)), 0o644))
}

// TestVerdictsCarryOverAndOnlyWhatChangedIsJudged walks a maintainer's
// week: a first run judges everything; a second reuses every verdict,
// builds nothing and says the same; --full ignores the file and says the
// same again; a one-function change re-judges that function's mutants
// alone; an excuse changed re-judges its mutant; a chapter's test changed
// re-judges everything it judges.
func TestVerdictsCarryOverAndOnlyWhatChangedIsJudged(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the fixture's chapter several times")
	}
	root, first := judgedFixture(t)
	all, want := judged(first)
	assert.Assert(t, len(all) > 10, "the first run judged only %d mutants", len(all))
	file, err := os.ReadFile(verdictFile(root, "internal/ledger"))
	assert.NilError(t, err)
	assert.Assert(t, !strings.Contains(string(file), "."+"0s") && !strings.Contains(string(file), "seconds"), "the verdict file holds timings:\n%s", file)

	second, log := measure(t, root, Config{})
	again, got := judged(second)
	assert.Assert(t, is.Len(again, 0), "an unchanged tree judged again: %v", again)
	assert.Assert(t, !strings.Contains(log, "building"), "an unchanged tree built something:\n%s", log)
	assert.DeepEqual(t, got, want)
	rewritten, err := os.ReadFile(verdictFile(root, "internal/ledger"))
	assert.NilError(t, err)
	assert.Equal(t, string(rewritten), string(file), "a run that judged nothing rewrote the verdict file differently")
	// A reused kill names its killing test, as the fresh one did.
	killedBy := map[string]string{}
	for _, r := range first.Mutants {
		killedBy[r.ID] = r.KilledBy
	}
	named := 0
	for _, r := range second.Mutants {
		if r.Verdict == Killed && r.KilledBy != "" {
			named++
			assert.Check(t, strings.HasPrefix(killedBy[r.ID], r.KilledBy), "%s reused: killed_by %q; judged fresh it was %q", r.ID, r.KilledBy, killedBy[r.ID])
		}
	}
	assert.Check(t, named > 0, "no reused kill named its killing test")

	full, _ := measure(t, root, Config{Full: true})
	ids, got := judged(full)
	assert.Equal(t, len(ids), len(all), "--full judged only %d of %d", len(ids), len(all))
	assert.DeepEqual(t, got, want)

	edit(t, root, "internal/ledger/ledger.go", `return "items"`, `return "things"`)
	third, _ := measure(t, root, Config{})
	ids, _ = judged(third)
	assert.Assert(t, len(ids) > 0, "a changed function's mutants were not judged again")
	for _, id := range ids {
		assert.Assert(t, strings.HasPrefix(id, "ledger:Plural:"), "%s was judged again, yet only Plural changed", id)
	}

	edit(t, root, "chapters/excused-mutants/ledger.txt", "changes nothing Second returns", "changes nothing that Second returns")
	fourth, _ := measure(t, root, Config{})
	ids, _ = judged(fourth)
	assert.DeepEqual(t, ids, []string{"ledger:width:int-const:04aa62a5"})

	edit(t, root, "chapters/ch01_ledger/ledger_test.go", "want nil below the limit", "want nil below its limit")
	fifth, _ := measure(t, root, Config{})
	ids, _ = judged(fifth)
	assert.Equal(t, len(ids), len(all), "a chapter's test changed, yet not every mutant it judges was judged again")

}

// TestAStaleOrFalseVerdictIsNotTrusted: a sample of honest verdicts
// passes, saying its size and seed; an entry that lies about its verdict
// under a good key is caught by a sample; an entry whose key does not
// match is judged again.
func TestAStaleOrFalseVerdictIsNotTrusted(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the fixture's chapter several times")
	}
	root, first := judgedFixture(t)
	_, verdicts := judged(first)
	// Lines stored before killers were kept have none.
	stored := verdictFile(root, "internal/ledger")
	before, err := os.ReadFile(stored)
	assert.NilError(t, err)
	var old strings.Builder
	for _, line := range strings.SplitAfter(string(before), "\n") {
		if f := strings.Fields(line); len(f) == 4 && !strings.HasPrefix(line, "#") {
			line = strings.Join(f[:3], " ") + "\n"
		}
		old.WriteString(line)
	}
	assert.NilError(t, os.WriteFile(stored, []byte(old.String()), 0o644))
	honest, log := measure(t, root, Config{Sample: 3, Seed: 11})
	ids, _ := judged(honest)
	assert.Equal(t, len(ids), 3, "a sample of 3 judged %v", ids)
	assert.Assert(t, is.Contains(log, "re-judging 3 reused verdicts (seed 11)"), "the sample's size and seed are printed:\n%s", log)
	assert.DeepEqual(t, honest.Sample.Differ, []string{})
	after, err := os.ReadFile(stored)
	assert.NilError(t, err)
	assert.Equal(t, string(after), old.String(), "a sample whose verdicts held rewrote the verdict file")

	name := verdictFile(root, "internal/ledger")
	data, err := os.ReadFile(name)
	assert.NilError(t, err)
	const victim = "ledger:Open:relop:" // the boundary flip TestLeaseIsClosedAtItsEnd kills
	rewrite := func(change func(id, verdict, key string) string) {
		t.Helper()
		var lines []string
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); strings.HasPrefix(line, victim) {
				line = change(f[0], f[1], f[2])
			}
			lines = append(lines, line)
		}
		assert.NilError(t, os.WriteFile(name, []byte(strings.Join(lines, "\n")), 0o644))
	}
	rewrite(func(id, _, key string) string { return id + " survived " + key }) // a lie under a good key
	sampled, _ := measure(t, root, Config{Sample: 1000, Seed: 7})
	assert.Assert(t, sampled.Sample != nil && sampled.Sample.Seed == 7, "the sample's seed is reported")
	assert.Equal(t, sampled.Sample.Size, len(verdicts)-first.Total().Invalid, "a sample larger than the reused verdicts takes them all")
	assert.Assert(t, is.Len(sampled.Sample.Differ, 1), "the lying entry was not caught: %v", sampled.Sample.Differ)
	assert.Assert(t, strings.HasPrefix(sampled.Sample.Differ[0], victim))
	assert.Assert(t, is.Contains(strings.Join(sampled.Problems, "\n"), "sample: "+sampled.Sample.Differ[0]), "a sample that differs is a problem")

	rewrite(func(id, verdict, _ string) string { return id + " survived 000000000000000000000000" }) // a key that does not hold
	rerun, _ := measure(t, root, Config{})
	ids, got := judged(rerun)
	assert.Assert(t, is.Len(ids, 1), "only the stale entry is judged again: %v", ids)
	assert.Equal(t, got[ids[0]], Killed, "the stale entry's mutant, judged again")
}

// TestAKillOfAMutantBuiltAloneIsConfirmedWithoutIt: in a run with few
// mutants to judge (no baselines), a kill of a mutant built alone (an
// array length) is confirmed in the build without the mutant; the binary
// that has it compiled in would fail again and stop the run.
func TestAKillOfAMutantBuiltAloneIsConfirmedWithoutIt(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the fixture's chapter")
	}
	root, first := judgedFixture(t)
	_, verdicts := judged(first)
	const alone = "ledger:stampLen:int-const:"
	name := verdictFile(root, "internal/ledger")
	data, err := os.ReadFile(name)
	assert.NilError(t, err)
	var lines []string
	stale := 0
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); strings.HasPrefix(line, alone) {
			assert.Equal(t, Verdict(f[1]), Killed, "%s: the stamp's length is what its test reads", f[0])
			line, stale = f[0]+" "+f[1]+" 000000000000000000000000", stale+1
		}
		lines = append(lines, line)
	}
	assert.Equal(t, stale, 2, "the stamp's length has two mutants")
	assert.NilError(t, os.WriteFile(name, []byte(strings.Join(lines, "\n")), 0o644))

	rerun, log := measure(t, root, Config{})
	assert.Assert(t, is.Contains(log, "no baselines"), "the run was not a lean one:\n%s", log)
	ids, got := judged(rerun)
	assert.Equal(t, len(ids), 2, "only the stale entries are judged again: %v", ids)
	for _, id := range ids {
		assert.Assert(t, strings.HasPrefix(id, alone), id)
		assert.Equal(t, got[id], verdicts[id], "%s, built alone and judged again", id)
	}
}

// TestMain removes the shared measured fixture once every test is done.
func TestMain(m *testing.M) {
	code := m.Run()
	if judgedOnce.dir != "" {
		os.RemoveAll(filepath.Dir(judgedOnce.dir))
	}
	os.Exit(code)
}

// TestAKillByATestThatFailsAloneProvesNothing: a run with few mutants to
// judge runs no baselines, so it confirms every kill by running the
// killing test with no mutant on; a test that fails anyway stops the run.
func TestAKillByATestThatFailsAloneProvesNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the fixture's chapter")
	}
	root, _ := judgedFixture(t)
	// Open now answers false always: TestLeaseIsClosedAtItsEnd fails with
	// no mutant on, and Open's mutants, their function changed, are judged.
	edit(t, root, "internal/ledger/ledger.go", "return expires > now }", "return expires > now && false }")
	r := &variant.Runner{Root: root, Jobs: 2}
	t.Cleanup(func() { assert.NilError(t, r.Close()) })
	var log bytes.Buffer
	_, err := Run(t.Context(), Config{Runner: r, Tree: fixtureTree, Packages: []string{"internal/ledger"}, Log: &log})
	assert.ErrorContains(t, err, "ch01_ledger fails with no mutant switched on: TestLeaseIsClosedAtItsEnd")
	assert.Assert(t, is.Contains(log.String(), "no baselines"), "the run was not a lean one:\n%s", log.String())
}

// TestAStoredKillerReadsBackAsTheTestToRunFirst: the killer a verdict line
// stores is the test a later judging runs alone first, so the token must
// read back as the same judge, test and script it was written from, and a
// kill outside any test stores nothing to run.
func TestAStoredKillerReadsBackAsTheTestToRunFirst(t *testing.T) {
	for _, tc := range []struct {
		killedBy string
		want     killer
		ok       bool
	}{
		{"chapters/ch02_cas_claim: TestCompleteNeedsTheToken: wrong answer", killer{"chapters/ch02_cas_claim", "TestCompleteNeedsTheToken", ""}, true},
		{"chapters/ch10_lock_service: " + strings.Trim(scriptTests, "^$") + "/lockservice/line_12: no match", killer{"chapters/ch10_lock_service", strings.Trim(scriptTests, "^$"), "lockservice"}, true},
		{"internal/mailbox: timed out", killer{}, false},
	} {
		got, ok := stored{Verdict: Killed, Key: "k", Killer: killerToken(tc.killedBy)}.killer()
		if ok != tc.ok || got != tc.want {
			t.Errorf("killed by %q: stored killer reads back as %+v (%v), want %+v (%v): the next judging would run the wrong test first", tc.killedBy, got, ok, tc.want, tc.ok)
		}
	}
}

// TestASaveKeepsTheStaleLinesOfMutantsNotJudgedAgainYet: a run that
// stops half-way (interrupted) writes what it judged, and keeps the
// stale line of each mutant it did not reach, with its killer, for the
// next run to try first.
func TestASaveKeepsTheStaleLinesOfMutantsNotJudgedAgainYet(t *testing.T) {
	root := t.TempDir()
	m := &measurement{
		root: root, dirs: []string{"internal/box"},
		results:  []Result{{ID: "box:f:not:1", Package: "internal/box"}, {ID: "box:g:not:2", Package: "internal/box"}},
		runnable: []int{0, 1},
		keys:     []string{"newkey1", "newkey2"},
		stored: map[string]stored{
			"box:f:not:1": {Verdict: Killed, Key: "newkey1", Killer: "internal/box:TestF"},
			"box:g:not:2": {Verdict: Killed, Key: "oldkey2", Killer: "internal/box:TestG"},
		},
	}

	assert.NilError(t, m.saveVerdicts())

	got, err := readVerdicts(root, m.dirs)
	assert.NilError(t, err)
	assert.Equal(t, got["box:f:not:1"].Key, "newkey1", "the judged verdict")
	assert.Equal(t, got["box:g:not:2"].Key, "oldkey2", "the stale line kept, under its old key")
	k, ok := got["box:g:not:2"].killer()
	assert.Assert(t, ok, "the stale line keeps its killer")
	assert.Equal(t, k.test, "TestG")
	assert.Assert(t, got["box:g:not:2"].Key != m.keys[1], "a stale line's key is not the mutant's: it is judged again, never reused")
}
