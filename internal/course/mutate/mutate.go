// Package mutate measures the course's tests against mistakes nobody
// chose: it generates mutants of the packages its declaration names (the
// mechanism, the runner, and drill's exit statuses) mechanically, from
// their Go and from the SQL they send, runs the tests that reach each
// package against every mutant, and reports which mutants the tests kill.
//
// A mutant is one small, mechanical change to the source: a relational
// operator flipped, one operand of && dropped, an error check removed, a
// returned error made nil, two writes swapped, a WHERE conjunct dropped
// from a statement. The weakening catalog (package weakening) holds the
// mistakes the course chose to teach; mutants are the ones nobody chose. A
// mutant the tests do not kill is a property no test states, unless it is
// excused in writing: equivalent (no behaviour can tell it apart) or
// unreachable (a failure the course cannot provoke).
//
// The pipeline, a file each:
//
//   - layers.go: what every folder under internal/ is (mechanism, runner,
//     helper, tooling), which functions decide who may act, which return
//     exit statuses, which clamp a sum. Nothing is guessed from a name.
//   - operator.go: the registry. Each Go operator is one file (op_*.go),
//     each SQL operator one row of sql.go's table, holding its generator,
//     how a shared build switches it and whether it may decide authority.
//   - load.go, generate.go: the packages parsed and type-checked, and
//     walked, every node handed to every operator.
//   - typecheck.go: each mutant type-checked alone; one that does not
//     build is invalid.
//   - judges.go, scripts.go: which test packages can kill a mutant of a
//     package: the chapters that use it, and for the runner the scripts
//     that run its commands and the runner's own tests.
//   - key.go, verdicts.go, sample.go: each verdict is stored in
//     chapters/mutant-verdicts under a key (the mutant, its function's
//     source, the test side of its judges, its excuse) and reused while the
//     key holds; a sample of reused verdicts is judged again to keep that
//     honest.
//   - schema.go, lazy.go, build.go: the shared build (below).
//   - judge.go, exec.go: running the judges, quickest first.
//   - excuse.go, report.go: excuses applied, verdicts summed up.
//
// Most mutants are compiled together into one build per judge (mutant
// schemata): each mutated expression keeps its original and its mutated
// forms, and an environment variable picks which mutant a test process
// runs. The build is paid once. An unexported constant declared alone
// becomes a variable in that build where its uses allow it, so its mutants
// are switched too. A mutant that cannot be switched at run time (an
// exported constant, an array length) is built on its own through the go
// command's -overlay flag.
package mutate

import (
	"fmt"
	"strings"
)

// Mutant is one generated change to one file of a mechanism package.
type Mutant struct {
	// ID names the mutant stably: package, function, operator and a hash
	// of the mutated snippet. Adding a line elsewhere does not change it.
	ID       string
	Package  string // the package's folder relative to the module root, e.g. internal/mailbox
	File     string // the file, relative to the module root, slash-separated
	Line     int    // where the change is, for people; not part of the ID
	Func     string // the enclosing function (Mailbox.Claim), or the declared name outside one
	Operator Operator
	// Original and Mutated are the changed snippet before and after, for
	// people (for SQL: the fragment of the statement that changes).
	Original, Mutated string
	// Authority is true for a change that can decide who may act: the
	// SQL that writes or begins the transaction, or, in a function the
	// declaration lists as deciding (Package.Decides), a change its
	// operator may make there. Such a mutant can never be excused as
	// unreachable.
	Authority bool

	start, end  int    // byte offsets of the replaced source range
	original    string // the source text of [start, end), to notice a file that changed
	replacement string // the source text that replaces [start, end)
	// typ is the Go type a picked or lazy switch spells (int64, string,
	// error, or an alias of the types file).
	typ string
	// aliases and imports are what the types file must declare for typ:
	// alias name to type, import name to path.
	aliases, imports map[string]string
	// keep, if set, is an expression the mutant alone keeps in use (var _
	// = keep at the end of its file): the call it replaced may have been
	// the file's only use of an import. A shared build keeps the call.
	keep    string
	sqlHead string // for SQL operators: the statement's first words
	declSum string // a hash of the enclosing declaration's source
	schema  bool   // can be switched at run time inside a shared build
	// constAt is, for a mutant of an unexported package-level constant
	// declared alone, the offset of its "const" keyword: a shared build
	// may declare it a variable instead, so a switch can reach it. 0 for
	// every other mutant.
	constAt int
}

// Diff is the mutant as one line for people: where, and what became what.
func (m *Mutant) Diff() string {
	if m.Mutated == "" {
		return fmt.Sprintf("%s:%d (%s): delete %s", m.File, m.Line, m.Func, quote(m.Original))
	}
	return fmt.Sprintf("%s:%d (%s): %s -> %s", m.File, m.Line, m.Func, quote(m.Original), quote(m.Mutated))
}

// quote shows a snippet on one line.
func quote(s string) string { return "`" + oneLine(s) + "`" }

// oneLine collapses every run of white space in s to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
