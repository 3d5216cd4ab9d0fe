package mutate

// The operators for the mistakes people make, each on its example in the
// fixture: what it changes, where it applies and where it does not, and
// whether its mutants decide authority.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// inFunc returns the mutants of op in function fn.
func inFunc(ms []*Mutant, op Operator, fn string) []*Mutant {
	var out []*Mutant
	for _, m := range ms {
		if m.Operator == op && m.Func == fn {
			out = append(out, m)
		}
	}
	return out
}

// changes lists what each mutant changes, `original -> mutated`.
func changes(ms []*Mutant) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, oneLine(m.Original)+" -> "+oneLine(m.Mutated))
	}
	return out
}

// TestEachNewOperatorProducesItsMutants: each operator for the mistakes
// people make finds exactly its examples in the fixture, and nothing else
// there.
func TestEachNewOperatorProducesItsMutants(t *testing.T) {
	t.Parallel()
	ledger := generateIn(t, fixture, "internal/ledger")
	store := generateIn(t, fixture, "internal/store")
	tool := generateIn(t, fixture, "internal/tool")
	for _, c := range []struct {
		name string
		ms   []*Mutant
		op   Operator
		fn   string
		want []string
	}{
		{"nil-error-sentinel", ledger, NilError, "Ledger.Take", []string{"ErrFull -> nil"}},
		{"nil-error-last-result", ledger, NilError, "Sync", []string{"ferr -> nil"}},
		// `if werr != nil { return werr }` and Check's wrapped err pass a
		// failure on: err-check's, not nil-error's.
		{"no-nil-error-for-a-failure-passed-on", ledger, NilError, "Check", []string{}},
		{"error-swap", ledger, ErrorSwap, "Sync", []string{"werr -> ferr", "ferr -> werr"}},
		{"clamp-min", ledger, Clamp, "Wait", []string{"min(d, time.Second) -> d"}},
		{"clamp-declared", ledger, Clamp, "Ends", []string{"Bound(now, n, 100) -> now + n"}},
		{"outside-tx", store, OutsideTx, "Store.Owner", []string{"tx.QueryRow(`SELECT owner FROM items WHERE id = ?`, id) -> s.db.QueryRow(`SELECT owner FROM items WHERE id = ?`, id)"}},
		{"exit-status", tool, ExitStatus, "Main", []string{"2 -> 1", "1 -> 0", "0 -> 1"}},
		{"exit-status-os-exit", tool, ExitStatus, "Halt", []string{"1 -> 0"}},
		{"no-exit-status-elsewhere", tool, ExitStatus, "Width", []string{}},
		// Only len(args) == 0 and args[0]: the statuses are exit-status's.
		{"no-int-const-for-exit-statuses", tool, IntConst, "Main", []string{"0 -> 1", "0 -> -1", "0 -> 1", "0 -> -1"}},
		{"int-const-elsewhere", tool, IntConst, "Width", []string{"1 -> 2", "1 -> 0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.DeepEqual(t, changes(inFunc(c.ms, c.op, c.fn)), c.want)
		})
	}
	swaps := inFunc(ledger, SwapWrites, "Journal")
	assert.Assert(t, is.Len(swaps, 1), "swap-writes mutants of Journal; have:\n%s", diffs(ledger))
	assert.Assert(t, strings.Index(swaps[0].replacement, `"commit\n"`) < strings.Index(swaps[0].replacement, `entry+"\n"`),
		"the swapped Journal writes the commit mark first: %s", swaps[0].replacement)
	for _, fn := range []string{"Sync", "Wait", "Ends", "Bound"} {
		assert.Assert(t, is.Len(inFunc(ledger, SwapWrites, fn), 0), "%s holds no two adjacent writes", fn)
	}
}

// TestLazyMutantsNameTheirType: an alternative that must not be evaluated
// unless chosen is switched inside a function literal, which spells its
// type: a type of another package through an alias of the types file.
func TestLazyMutantsNameTheirType(t *testing.T) {
	t.Parallel()
	wait := inFunc(generateIn(t, fixture, "internal/ledger"), Clamp, "Wait")[0]
	assert.Assert(t, wait.schema, "min(d, time.Second) is switched at run time")
	assert.Assert(t, strings.HasPrefix(wait.typ, "_fencelabT"), "time.Duration is named through an alias, got %q", wait.typ)
	src := typesFile("ledger", []*Mutant{wait})
	assert.Assert(t, is.Contains(src, `_fencelab_time "time"`), "the types file imports time:\n%s", src)
	assert.Assert(t, is.Contains(src, "type "+wait.typ+" = _fencelab_time.Duration"), "the types file declares the alias:\n%s", src)

	owner := inFunc(generateIn(t, fixture, "internal/store"), OutsideTx, "Store.Owner")[0]
	assert.Assert(t, owner.schema, "the read sent outside the transaction is switched at run time")
	assert.Assert(t, is.Contains(typesFile("store", []*Mutant{owner}), "= *_fencelab_database_sql.Row"), "*sql.Row through the types file")
	assert.Equal(t, typesFile("ledger", inFunc(generateIn(t, fixture, "internal/ledger"), NilError, "Sync")), "",
		"an error needs no types file")
}

// TestAuthorityComesFromTheDeclaration: a Go mutant decides authority
// only in a function the declaration lists as deciding, and only if its
// operator may; a nil-error there decides only when it silences a refusal
// the package names, not a failure passed on.
func TestAuthorityComesFromTheDeclaration(t *testing.T) {
	t.Parallel()
	ms := generateIn(t, fixture, "internal/ledger")
	for _, c := range []struct {
		name string
		op   Operator
		fn   string
		want bool
	}{
		{"declared", CondOperand, "May", true},
		{"not-declared", RelOp, "Open", false},
		{"operator-may-not", CallDelete, "Ledger.Take", false},
		{"refusal-silenced", NilError, "Ledger.Take", true},
		{"not-declared-nil-error", NilError, "Sync", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := inFunc(ms, c.op, c.fn)
			assert.Assert(t, len(got) > 0, "no %s mutant in %s", c.op, c.fn)
			for _, m := range got {
				assert.Equal(t, m.Authority, c.want, "does %s decide authority?", m.Diff())
			}
		})
	}
	undeclared := Tree{{Dir: "internal/ledger", Layer: Mechanism}}
	for _, m := range generateWith(t, fixture, "internal/ledger", undeclared) {
		assert.Assert(t, !m.Authority, "%s decides authority, yet its package declares no deciding function", m.Diff())
	}
}

// TestToolingGetsOnlyExitStatuses: a tooling package's only mutants are
// the exit statuses its declared functions return.
func TestToolingGetsOnlyExitStatuses(t *testing.T) {
	t.Parallel()
	tree := Tree{{Dir: "internal/tool", Layer: Tooling, Exits: []string{"Main"}}}
	ms := generateWith(t, fixture, "internal/tool", tree)
	for _, m := range ms {
		assert.Equal(t, m.Operator, ExitStatus, "a tooling mutant that is not an exit status: %s", m.Diff())
	}
	assert.Equal(t, len(ms), 4, "Main's three statuses and Halt's os.Exit(1); have:\n%s", diffs(ms))
}

// TestEveryOperatorIsRegisteredOnce: the registry lists every operator
// with a description, the Go ones before the SQL family, and reports list
// them all.
func TestEveryOperatorIsRegisteredOnce(t *testing.T) {
	t.Parallel()
	ops := Operators()
	assert.Equal(t, len(ops), len(registry))
	sqlSeen := false
	for _, op := range ops {
		assert.Assert(t, op.Doc() != "", "%s has no description", op)
		assert.Assert(t, !sqlSeen || op.isSQL(), "%s, a Go operator, is listed after the SQL family", op)
		sqlSeen = sqlSeen || op.isSQL()
	}
	rep := &Report{}
	rep.finish([]Result{{ID: "a", Operator: RelOp, Verdict: Killed}}, nil)
	assert.Equal(t, len(rep.Operators), len(ops), "the report's operator table lists every operator")
}

// TestAnUnreadableFileIsAnError: a file of the package that cannot be read
// stops the generation; it is never skipped.
func TestAnUnreadableFileIsAnError(t *testing.T) {
	t.Parallel()
	root := copyFixture(t)
	pkgs, _, err := load(t.Context(), root, []string{"internal/ledger"})
	assert.NilError(t, err)
	assert.NilError(t, os.Remove(filepath.Join(root, "internal", "ledger", "mistakes.go")))
	_, err = generate(root, fixtureTree, pkgs[0])
	assert.ErrorContains(t, err, "mistakes.go")
}
