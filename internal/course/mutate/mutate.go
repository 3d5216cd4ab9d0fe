// Package mutate measures the chapters' tests against mistakes nobody
// chose: it generates mutants of the mechanism packages mechanically, from
// their Go and from the SQL they send, runs the chapter tests against each
// one, and reports which mutants the tests kill.
//
// A mutant is one small, mechanical change to the source: a relational
// operator flipped, one operand of && dropped, an error check removed, a
// WHERE conjunct dropped from a statement. The weakening catalog (package
// weakening) holds the mistakes the course chose to teach; mutants are the
// ones nobody chose. A mutant the tests do not kill is a property no test
// states, unless it is excused in writing: equivalent (no behaviour can tell
// it apart) or unreachable (a failure the course cannot provoke).
//
// Most mutants are compiled together into one build per chapter (mutant
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

// Operator names one kind of mechanical change.
type Operator string

// The operators. The Go ones work on the syntax tree; the SQL ones on the
// statements inside string literals the mechanism sends to SQLite.
const (
	// RelOp flips a relational operator: < and <=, > and >=, == and !=.
	RelOp Operator = "relop"
	// CondOperand drops one operand of && or ||.
	CondOperand Operator = "cond-operand"
	// Not drops a logical negation.
	Not Operator = "not"
	// ErrCheck removes an `if err != nil { return ... }`.
	ErrCheck Operator = "err-check"
	// RowsAffected ignores the check of a RowsAffected result: the code
	// acts as if the statement changed the row it aimed at.
	RowsAffected Operator = "rows-affected"
	// IntConst replaces an integer constant c with c+1 or c-1.
	IntConst Operator = "int-const"
	// CallDelete deletes a call statement whose result is unused.
	CallDelete Operator = "call-delete"
	// SQLWhereDrop drops one top-level conjunct of a WHERE clause.
	SQLWhereDrop Operator = "sql-where-drop"
	// SQLCompare flips a comparison operator in a statement.
	SQLCompare Operator = "sql-compare"
	// SQLSetDrop drops one assignment from a SET list.
	SQLSetDrop Operator = "sql-set-drop"
	// SQLBegin turns BEGIN IMMEDIATE into a plain BEGIN.
	SQLBegin Operator = "sql-begin"
)

// Operators lists every operator, in the order reports show them.
var Operators = []Operator{RelOp, CondOperand, Not, ErrCheck, RowsAffected, IntConst, CallDelete,
	SQLWhereDrop, SQLCompare, SQLSetDrop, SQLBegin}

// isSQL reports whether op changes SQL rather than Go.
func (op Operator) isSQL() bool { return strings.HasPrefix(string(op), "sql-") }

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
	// Authority is true for a change to the SQL or the Go condition that
	// decides who may claim, complete, finish, dead-letter or admit. Such a
	// mutant can never be excused as unreachable.
	Authority bool

	start, end  int    // byte offsets of the replaced source range
	original    string // the source text of [start, end), to notice a file that changed
	replacement string // the source text that replaces [start, end)
	stmt        bool   // the range is a whole statement (CallDelete)
	typ         string // for IntConst: the Go type the constant takes
	sqlHead     string // for SQL operators: the statement's first words
	schema      bool   // can be switched at run time inside a shared build
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
