package mutate

// This file is the registry of operators. Each Go operator is one file
// (op_*.go) and each SQL operator one row of the table in sql.go; either
// registers itself here with everything the engine needs to know of it:
// its name, what it changes, how a shared build switches its mutants and
// whether they may decide authority. Adding an operator touches only its
// own file (and its fixture test).

import (
	"fmt"
	"go/ast"
	"slices"
	"strings"
)

// Operator names one kind of mechanical change.
type Operator string

// switchKind is how a shared build switches a mutant on at run time.
type switchKind int

const (
	// switchCond: a boolean expression; only the chosen branch is
	// evaluated, so side effects happen once, as in the original.
	switchCond switchKind = iota
	// switchPick: a constant value picked from a list at run time; every
	// alternative is evaluated, so they must be constants or variables.
	switchPick
	// switchLazy: an expression inside a function literal that returns
	// it, evaluated only when chosen: the alternatives may call anything.
	switchLazy
	// switchDelete: a statement that runs unless its mutant is on.
	switchDelete
	// switchStmts: a run of statements replaced by others.
	switchStmts
)

// operator is one registered operator.
type operator struct {
	name Operator
	// doc says what the operator changes, in one line for people:
	// drill mutate -h lists it.
	doc string
	// switched is how a shared build switches its mutants.
	switched switchKind
	// mayDecide is true if its mutants can decide who may act (see
	// Mutant.Authority). A mutant of an operator without it never does.
	mayDecide bool
	// tooling is true if it also mutates the tooling's Exits functions;
	// every other operator leaves the tooling alone.
	tooling bool
	// visitor returns, for the walk of one file, the function called on
	// each node before its children; it may keep state for that file.
	// Nil for the SQL family, whose rows have sql instead.
	visitor func(st *fileState) func(ast.Node)
	// sql generates the mutants of one statement, for the SQL family.
	sql func(s *statement)
}

// registry holds every operator by name.
var registry = map[Operator]*operator{}

// register adds op to the registry and returns its name.
func register(op *operator) Operator {
	if _, dup := registry[op.name]; dup || op.name == "" || (op.visitor == nil) == (op.sql == nil) {
		panic(fmt.Sprintf("mutate: operator %q registered twice, or with neither or both of a visitor and a sql row", op.name))
	}
	registry[op.name] = op
	return op.name
}

// Operators lists every operator: the Go ones, then the SQL family, each
// group in name order. Reports list them in this order.
func Operators() []Operator {
	var out []Operator
	for name := range registry {
		out = append(out, name)
	}
	slices.SortFunc(out, func(a, b Operator) int {
		if sa, sb := registry[a].sql != nil, registry[b].sql != nil; sa != sb {
			if sa {
				return 1
			}
			return -1
		}
		return strings.Compare(string(a), string(b))
	})
	return out
}

// Doc is the operator's one-line description.
func (op Operator) Doc() string {
	if r := registry[op]; r != nil {
		return r.doc
	}
	return ""
}

// isSQL reports whether op changes SQL rather than Go.
func (op Operator) isSQL() bool { return registry[op] != nil && registry[op].sql != nil }

// goOperators returns the Go operators that apply to a package of layer,
// in name order.
func goOperators(layer Layer) []*operator {
	var out []*operator
	for _, name := range Operators() {
		op := registry[name]
		if op.visitor != nil && (layer != Tooling || op.tooling) {
			out = append(out, op)
		}
	}
	return out
}
