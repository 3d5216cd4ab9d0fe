package mutate

// The engine is graded on the fixture module in testdata/mutate at the top
// of the repository: a ledger package with one example of each Go
// operator and a chapter that kills some of its mutants, a store package
// with one example of each SQL operator and a transaction, and a tool
// package with exit statuses.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// fixture is the fixture module, relative to this package.
const fixture = "../../../testdata/mutate"

// fixtureTree declares the fixture's packages: what decides authority,
// a clamp, and the exit statuses of its tool.
var fixtureTree = Tree{
	{Dir: "internal/ledger", Layer: Mechanism, Decides: []string{"May", "Ledger.Take"},
		Clamps: map[string]func([]string) string{"Bound": func(a []string) string { return a[0] + " + " + a[1] }}},
	{Dir: "internal/store", Layer: Mechanism, Decides: []string{"Claim"}},
	{Dir: "internal/tool", Layer: Runner, Exits: []string{"Main"}},
}

// copyFixture copies the fixture module into a fresh directory, so a test
// may edit it or build in it.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "fixture")
	assert.NilError(t, os.CopyFS(dir, os.DirFS(fixture)))
	return dir
}

// generateIn loads the package folder rel of the module at root and
// returns its mutants, as fixtureTree declares it.
func generateIn(t *testing.T, root, rel string) []*Mutant {
	t.Helper()
	return generateWith(t, root, rel, fixtureTree)
}

// generateWith is generateIn under the declaration tree.
func generateWith(t *testing.T, root, rel string, tree Tree) []*Mutant {
	t.Helper()
	abs, err := filepath.Abs(root)
	assert.NilError(t, err)
	pkgs, _, err := load(t.Context(), abs, []string{rel})
	assert.NilError(t, err)
	assert.Equal(t, len(pkgs), 1, "packages loaded from %s", rel)
	ms, err := generate(abs, tree, pkgs[0])
	assert.NilError(t, err)
	return ms
}

// find returns the mutants of op whose snippets are original and mutated.
func find(ms []*Mutant, op Operator, original, mutated string) []*Mutant {
	var out []*Mutant
	for _, m := range ms {
		if m.Operator == op && oneLine(m.Original) == original && oneLine(m.Mutated) == mutated {
			out = append(out, m)
		}
	}
	return out
}

// TestEachGoOperatorProducesItsMutant: every Go operator finds its example
// in the ledger fixture and changes exactly what it names.
func TestEachGoOperatorProducesItsMutant(t *testing.T) {
	t.Parallel()
	ms := generateIn(t, fixture, "internal/ledger")
	for _, c := range []struct {
		name              string
		op                Operator
		original, mutated string
	}{
		{"relop-boundary", RelOp, "expires > now", "expires >= now"},
		{"relop-equality", RelOp, "n != 1", "n == 1"},
		{"and-left", CondOperand, "holds && !stopped", "holds"},
		{"and-right", CondOperand, "holds && !stopped", "!stopped"},
		{"not", Not, "!stopped", "stopped"},
		{"err-check", ErrCheck, "if err != nil { return errors.Join(ErrFull, err) }", ""},
		{"int-plus", IntConst, "7", "8"},
		{"int-minus", IntConst, "7", "6"},
		{"const-decl", IntConst, "3", "4"},
		{"call-delete", CallDelete, `l.record("take")`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := find(ms, c.op, c.original, c.mutated)
			assert.Equal(t, len(got), 1, "%s mutants of `%s` -> `%s` in internal/ledger; have:\n%s", c.op, c.original, c.mutated, diffs(ms))
		})
	}
	limit := find(ms, IntConst, "3", "4")[0]
	assert.Assert(t, !limit.schema, "a constant declaration's mutant cannot be switched at run time: it must be built alone")
	open := find(ms, RelOp, "expires > now", "expires >= now")[0]
	assert.Assert(t, open.schema, "a comparison inside a function body is switched at run time")
}

// TestNoIntegerMutantBesideAnError: `return 0, err` hands back a value no
// caller may read, so changing that 0 could only make equivalent mutants;
// the same literal returned beside nil is mutated.
func TestNoIntegerMutantBesideAnError(t *testing.T) {
	t.Parallel()
	var got []string
	for _, m := range generateIn(t, fixture, "internal/ledger") {
		if m.Func == "Count" && m.Operator == IntConst {
			got = append(got, m.Original+" -> "+m.Mutated)
		}
	}
	assert.DeepEqual(t, got, []string{"5 -> 6", "5 -> 4"})
}

// TestConstantsAreSwitchedWhereAVariableCanStand: an unexported constant
// declared alone, or a block of them, becomes a variable in the shared
// build, so its mutants need no build of their own, unless it stands
// where only a constant may (an array length); an exported one may be
// used so in another package, and is always built alone. A package-level
// variable is switched like code in a function.
func TestConstantsAreSwitchedWhereAVariableCanStand(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(fixture)
	assert.NilError(t, err)
	pkgs, u, err := load(t.Context(), root, []string{"internal/ledger"})
	assert.NilError(t, err)
	ms, err := generate(root, fixtureTree, pkgs[0])
	assert.NilError(t, err)
	var valid []*Mutant
	for _, m := range ms {
		if checkAlone(pkgs[0], u, m) == nil {
			valid = append(valid, m)
		}
	}
	assert.NilError(t, switchConstants(root, map[string]*packages.Package{"internal/ledger": pkgs[0]}, u, valid))
	switched := map[string]bool{}
	for _, m := range valid {
		if m.Operator == IntConst && slices.Contains([]string{"Limit", "width", "pageSize", "lineMin", "lineMax", "retries"}, m.Func) {
			switched[m.Func+" "+m.Original+" -> "+m.Mutated] = m.schema
		}
	}
	assert.DeepEqual(t, switched, map[string]bool{
		"Limit 3 -> 4":      false,
		"Limit 3 -> 2":      false,
		"width 2 -> 3":      false,
		"pageSize 10 -> 11": true,
		"pageSize 10 -> 9":  true,
		"lineMin 1 -> 2":    true, // a block of unexported constants
		"lineMin 1 -> 0":    true,
		"lineMax 80 -> 81":  true,
		"lineMax 80 -> 79":  true,
		"retries 4 -> 5":    true, // a package-level variable
		"retries 4 -> 3":    true,
	})
}

// TestEachSQLOperatorProducesItsMutant: every SQL operator finds its
// example in the store fixture; the mutated statement keeps its
// placeholders, so it still takes the same arguments.
func TestEachSQLOperatorProducesItsMutant(t *testing.T) {
	t.Parallel()
	ms := generateIn(t, fixture, "internal/store")
	for _, c := range []struct {
		name              string
		op                Operator
		original, mutated string
		authority         bool
	}{
		{"where-drop", SQLWhereDrop, "expires_at <= ?", "", true},
		{"compare", SQLCompare, "expires_at <= ?", "expires_at < ?", true},
		{"set-drop", SQLSetDrop, "owner = ?", "", false},
		{"begin", SQLBegin, "BEGIN IMMEDIATE", "BEGIN", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := find(ms, c.op, c.original, c.mutated)
			assert.Assert(t, is.Len(got, 1), "%s mutants of `%s` -> `%s` in internal/store; have:\n%s", c.op, c.original, c.mutated, diffs(ms))
			assert.Equal(t, got[0].Authority, c.authority, "is %s a change to what decides authority?", got[0].ID)
			assert.Equal(t, strings.Count(got[0].replacement, "?"), strings.Count(sqlOf(t, got[0]), "?"),
				"placeholders in the mutated statement %s", got[0].replacement)
		})
	}
	// A SET list's comparison-looking '=' is an assignment, never flipped.
	assert.Assert(t, is.Len(find(ms, SQLCompare, "owner = ?", "owner <> ?"), 0), "an assignment in SET was flipped as if it were a comparison")
}

// sqlOf returns the original literal m replaces.
func sqlOf(t *testing.T, m *Mutant) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(fixture, filepath.FromSlash(strings.TrimPrefix(m.File, ""))))
	assert.NilError(t, err)
	return string(src[m.start:m.end])
}

func diffs(ms []*Mutant) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString("  " + string(m.Operator) + " " + m.Diff() + "\n")
	}
	return b.String()
}

// TestIDsSurviveAnUnrelatedLineAbove: adding lines above a mutant moves
// its line number but not its ID, so an excuse keeps naming it.
func TestIDsSurviveAnUnrelatedLineAbove(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	before := generateIn(t, root, "internal/ledger")

	file := filepath.Join(root, "internal", "ledger", "ledger.go")
	src, err := os.ReadFile(file)
	assert.NilError(t, err)
	edited := strings.Replace(string(src), "import \"errors\"\n",
		"import \"errors\"\n\n// Unrelated is a line added above every mutant.\nvar Unrelated = \"unrelated\"\n", 1)
	assert.Assert(t, edited != string(src), "the fixture no longer has the import line the test edits after")
	assert.NilError(t, os.WriteFile(file, []byte(edited), 0o644))
	after := generateIn(t, root, "internal/ledger")

	assert.Equal(t, len(after), len(before), "mutants after adding an unrelated line")
	for i := range before {
		if before[i].File != "internal/ledger/ledger.go" {
			continue
		}
		assert.Equal(t, after[i].ID, before[i].ID, "ID of %s after adding a line above it", before[i].Diff())
		assert.Assert(t, after[i].Line > before[i].Line, "line of %s did not move: the test did not add a line above it", before[i].Diff())
	}
}

// TestIDsAreUnique: no two mutants of a package share an ID, even when the
// same snippet appears twice in one function.
func TestIDsAreUnique(t *testing.T) {
	t.Parallel()
	for _, rel := range []string{"internal/ledger", "internal/store", "internal/tool"} {
		seen := map[string]string{}
		for _, m := range generateIn(t, fixture, rel) {
			prev, dup := seen[m.ID]
			assert.Assert(t, !dup, "%s names both %s and %s", m.ID, prev, m.Diff())
			seen[m.ID] = m.Diff()
		}
	}
}

// TestEveryVerdictArises runs the ledger's mutants against the fixture's
// chapter: a mutant its tests notice is killed (and says by which test),
// one they do not notice survives, one the excuse file names is excused,
// and one that does not build is invalid and not counted.
func TestEveryVerdictArises(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the fixture's chapter for every mutant")
	}
	root := copyFixture(t)
	r := &variant.Runner{Root: root, Jobs: 2}
	t.Cleanup(func() { assert.NilError(t, r.Close()) })
	rep, err := Run(t.Context(), Config{Runner: r, Tree: fixtureTree, Packages: []string{"internal/ledger"}})
	assert.NilError(t, err)

	byDiff := map[string]Result{}
	for _, r := range rep.Mutants {
		byDiff[strings.SplitN(r.Diff, ": ", 2)[1]] = r
		// And under its function: internal/ledger/ledger.go:24 (Ledger.Take): ... -> Ledger.Take: ...
		_, fn, _ := strings.Cut(r.Diff, " (")
		byDiff[strings.Replace(fn, "): ", ": ", 1)] = r
	}
	verdict := func(diff string) Result {
		t.Helper()
		r, ok := byDiff[diff]
		assert.Assert(t, ok, "no mutant %q in the report", diff)
		return r
	}
	killed := verdict("`expires > now` -> `expires >= now`")
	assert.Equal(t, killed.Verdict, Killed, "the boundary flip TestLeaseIsClosedAtItsEnd states")
	assert.Assert(t, is.Contains(killed.KilledBy, "TestLeaseIsClosedAtItsEnd"), "killed_by names the test that failed first")
	assert.Assert(t, is.Contains(killed.KilledBy, "Open(15, 15) = true"), "killed_by quotes the test's failure line")

	assert.Equal(t, verdict("`n != 1` -> `n == 1`").Verdict, Survived, "Plural's flip: no test looks at Plural")
	assert.Equal(t, verdict("delete `l.record(\"take\")`").Verdict, Survived, "deleting the log write: no test reads the log")

	excused := verdict("`2` -> `3`")
	assert.Equal(t, excused.Verdict, Excused, "the array length the excuse file calls equivalent")
	assert.Assert(t, is.Contains(excused.Reason, "equivalent: "), "an excused mutant carries its reason")

	invalid := verdict("`2` -> `1`")
	assert.Equal(t, invalid.Verdict, Invalid, "a length that puts b[1] out of range does not build")
	assert.Assert(t, is.Contains(invalid.Reason, "does not build"), "why the mutant is invalid")

	assert.Equal(t, verdict("`3` -> `2`").Verdict, Survived, "Limit-1: built alone, and the chapter reads Limit itself")

	// One mutant of each switch kind the new operators use, killed through
	// the shared build: a lazy error, a lazy value whose type the types
	// file names (time.Duration), and two statements swapped.
	for _, diff := range []string{"Ledger.Take: `ErrFull` -> `nil`", "Sync: `werr` -> `ferr`", "Wait: `min(d, time.Second)` -> `d`"} {
		assert.Equal(t, verdict(diff).Verdict, Killed, "%s through the shared build", diff)
	}
	for _, r := range rep.Mutants {
		if r.Operator == SwapWrites {
			assert.Equal(t, r.Verdict, Killed, "the commit mark written before the entry: %s", r.Diff)
		}
	}

	total := rep.Total()
	assert.Equal(t, total.Mutants, total.Killed+total.Excused+total.Survived+total.Invalid, "every mutant has one verdict")
	assert.Equal(t, rep.Survived, total.Survived, "survived counts the unexcused survivors")
	assert.Assert(t, !rep.OK(), "a run with survivors must not pass")
}

// TestAuthorityCannotBeExcusedUnreachable: a mutant of what decides who may
// act can only be killed or be equivalent; calling it unreachable is a
// problem, and it stays a survivor.
func TestAuthorityCannotBeExcusedUnreachable(t *testing.T) {
	t.Parallel()
	rep := &Report{}
	ex := map[string]Excuse{"store:Claim:sql-where-drop:00000000": {ID: "store:Claim:sql-where-drop:00000000", Kind: Unreachable, Reason: "never happens", Line: 3}}
	r := Result{ID: "store:Claim:sql-where-drop:00000000", Verdict: Survived, Authority: true}
	excuse(&r, ex, rep)
	assert.Equal(t, r.Verdict, Survived, "an authority mutant excused as unreachable")
	assert.Assert(t, is.Len(rep.Problems, 1), "the excuse must be reported as a problem")

	ex[r.ID] = Excuse{ID: r.ID, Kind: Equivalent, Reason: "no behaviour differs", Line: 3}
	excuse(&r, ex, rep)
	assert.Equal(t, r.Verdict, Excused, "an authority mutant may still be equivalent")
}

// TestParseExcusesRejectsWhatAReviewerCannotCheck: every excuse names its
// kind and gives a reason; nothing is excused twice.
func TestParseExcusesRejectsWhatAReviewerCannotCheck(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, line string }{
		{"no-kind", "ledger:Plural:relop:1234abcd because"},
		{"unknown-kind", "ledger:Plural:relop:1234abcd harmless: it is fine"},
		{"no-reason", "ledger:Plural:relop:1234abcd equivalent:"},
		{"twice", "a:b:c:d equivalent: x\na:b:c:d equivalent: y"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseExcuses([]byte(c.line), "")
			assert.ErrorIs(t, err, ErrBadExcuse)
		})
	}
	_, err := ParseExcuses([]byte("store:Claim:relop:1234abcd equivalent: fine"), "ledger")
	assert.ErrorIs(t, err, ErrBadExcuse, "ledger.txt excusing a mutant of store")
	ex, err := ParseExcuses([]byte("# a comment\n\nledger:Plural:relop:1234abcd equivalent: Plural is for people\n"), "ledger")
	assert.NilError(t, err)
	assert.DeepEqual(t, ex["ledger:Plural:relop:1234abcd"], Excuse{ID: "ledger:Plural:relop:1234abcd", Kind: Equivalent, Reason: "Plural is for people", Line: 3})
}

// TestMechanismPackagesLeaveOutTheUpperLayers: the runner and the course
// tooling are not the mechanism; a module the engine has no declaration
// for has every folder directly under internal/ as its mechanism.
func TestMechanismPackagesLeaveOutTheUpperLayers(t *testing.T) {
	t.Parallel()
	got, err := MechanismPackages("../../..")
	assert.NilError(t, err)
	assert.Assert(t, slices.Contains(got, "internal/mailbox"), "mechanism packages %v", got)
	for _, p := range got {
		assert.Assert(t, !strings.HasPrefix(p, "internal/runner") && !strings.HasPrefix(p, "internal/course"), "mechanism packages %v include an upper layer", got)
	}
	got, err = MechanismPackages(fixture)
	assert.NilError(t, err)
	assert.DeepEqual(t, got, []string{"internal/ledger", "internal/store", "internal/tool"})
}

// TestApplyMutatesOneFile: the file another tool gets for one mutant has
// exactly its change, and a file that changed since the mutant was
// generated is refused.
func TestApplyMutatesOneFile(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	ms, err := Generate(t.Context(), root, []string{"internal/ledger"})
	assert.NilError(t, err)
	open := find(ms, RelOp, "expires > now", "expires >= now")
	assert.Assert(t, is.Len(open, 1))
	for _, m := range ms {
		assert.Assert(t, !strings.Contains(m.Diff(), "`2` -> `1`"), "Generate returned %s, which does not build", m.Diff())
	}

	mutated, err := open[0].Apply(root)
	assert.NilError(t, err)
	assert.Assert(t, is.Contains(string(mutated), "return expires >= now"), "the mutated ledger.go")
	assert.Equal(t, open[0].File, "internal/ledger/ledger.go")

	file := filepath.Join(root, "internal", "ledger", "ledger.go")
	src, err := os.ReadFile(file)
	assert.NilError(t, err)
	assert.NilError(t, os.WriteFile(file, []byte(strings.Replace(string(src), "expires > now", "now < expires", 1)), 0o644))
	_, err = open[0].Apply(root)
	assert.ErrorContains(t, err, "changed since the mutant was generated")
}

// TestNoIntegerMutantBesideAFalseOk: `return 0, false` and
// `return 0, false, nil` hand back a value no caller may read, as
// `return 0, err` does, so they make no integer mutants; the values
// returned beside a true ok do.
func TestNoIntegerMutantBesideAFalseOk(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		assert.NilError(t, variant.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(text)))
	}
	write("go.mod", "module example.com/oks\n\ngo 1.26\n")
	write("internal/find/find.go", `package find

// Find is a comma-ok lookup.
func Find(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	return 5, true
}

// Lookup is a comma-ok lookup that can also fail.
func Lookup(s string) (int, bool, error) {
	if s == "" {
		return 0, false, nil
	}
	return 7, true, nil
}

// Flag returns a number beside a flag that is no ok: its literals stay.
func Flag() (int, bool, int) { return 1, false, 2 }
`)
	var got []string
	for _, m := range generateWith(t, root, "internal/find", Tree{{Dir: "internal/find", Layer: Mechanism}}) {
		if m.Operator == IntConst {
			got = append(got, m.Func+": "+m.Original+" -> "+m.Mutated)
		}
	}
	assert.DeepEqual(t, got, []string{
		"Find: 5 -> 6", "Find: 5 -> 4",
		"Lookup: 7 -> 8", "Lookup: 7 -> 6",
		"Flag: 1 -> 2", "Flag: 1 -> 0", "Flag: 2 -> 3", "Flag: 2 -> 1",
	})
}
