package mutate

// This file is the SQL family: the operators that mutate the statements
// the mechanism sends to SQLite, where most of the course's guarantees
// live. Each operator is one row of the table below; sqlLiteral hands
// them every string constant that holds a statement.

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// The SQL family.
const (
	SQLWhereDrop Operator = "sql-where-drop"
	SQLCompare   Operator = "sql-compare"
	SQLSetDrop   Operator = "sql-set-drop"
	SQLBegin     Operator = "sql-begin"
)

// The SQL family's table: one row each.
var (
	// SQLWhereDrop drops one top-level conjunct of a WHERE clause: the
	// conjunct's text stays (its ? placeholders still count for the
	// arguments) but can no longer refuse: 1 OR (...).
	_ = register(&operator{name: SQLWhereDrop, doc: "a WHERE conjunct dropped",
		switched: switchPick, mayDecide: true, sql: dropWhereConjuncts})
	// SQLCompare flips a comparison operator in a statement.
	_ = register(&operator{name: SQLCompare, doc: "a comparison flipped (< and <=, = and <>, IS and IS NOT)",
		switched: switchPick, mayDecide: true, sql: flipComparisons})
	// SQLSetDrop drops one assignment from a SET list: the column keeps
	// its value; the expression stays, never taken, so its placeholders
	// still count.
	_ = register(&operator{name: SQLSetDrop, doc: "a SET assignment dropped",
		switched: switchPick, sql: dropSetItems})
	// SQLBegin turns BEGIN IMMEDIATE into a plain BEGIN, which takes the
	// write lock only at the first write.
	_ = register(&operator{name: SQLBegin, doc: "BEGIN IMMEDIATE made BEGIN",
		switched: switchPick, mayDecide: true, sql: plainBegin})
)

// sqlKeywords are the statement openings whose text is mutated; DDL
// (CREATE, DROP) and the bare COMMIT and ROLLBACK have nothing to mutate.
var sqlKeywords = []string{"UPDATE ", "INSERT ", "SELECT ", "DELETE ", "WITH ", "REPLACE ", "BEGIN"}

// looksLikeSQL reports whether a string constant is a statement the
// mechanism sends. The mechanism writes its SQL keywords in upper case,
// which also keeps error messages ("begin immediate: ...") out.
func looksLikeSQL(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	for _, k := range sqlKeywords {
		if strings.HasPrefix(s, k) {
			return true
		}
	}
	return false
}

// sqlLiteral hands a string literal that holds a statement to every row
// of the SQL family; it is one of the walk's visitors.
func (st *fileState) sqlLiteral(n ast.Node) {
	lit, ok := n.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil || !looksLikeSQL(s) {
		return
	}
	for _, sm := range mutateSQL(s) {
		m := &Mutant{Operator: sm.op, Original: sm.original, Mutated: sm.mutated, typ: "string", sqlHead: sm.head}
		st.add(m, lit, requote(lit.Value, sm.sql))
		m.Authority = registry[sm.op].mayDecide && sm.decisive
	}
}

// requote writes s as a Go string literal in the style of orig.
func requote(orig, s string) string {
	if strings.HasPrefix(orig, "`") && !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// sqlMutation is one change to a statement's text.
type sqlMutation struct {
	op                Operator
	original, mutated string // the fragment, for people
	sql               string // the whole statement after the change
	head              string // the statement's first words, to tell identical fragments apart
	// decisive is true if the change can decide who may act: it is in
	// the WHERE clause of a write, or it is the transaction's BEGIN.
	decisive bool
}

// statement is one statement under mutation.
type statement struct {
	s     string
	toks  []sqlToken
	head  string
	write bool // UPDATE, INSERT, DELETE or REPLACE
	out   []sqlMutation
}

// mutateSQL returns every mutation of the statement s, the rows of the
// SQL family in turn.
func mutateSQL(s string) []sqlMutation {
	st := &statement{s: s, toks: tokenizeSQL(s)}
	if len(st.toks) == 0 {
		return nil
	}
	st.head = statementHead(st.toks)
	switch st.toks[0].upper() {
	case "UPDATE", "INSERT", "DELETE", "REPLACE":
		st.write = true
	}
	for _, name := range Operators() {
		if op := registry[name]; op.sql != nil {
			op.sql(st)
		}
	}
	return st.out
}

// add records the replacement of s[start:end].
func (st *statement) add(op Operator, start, end int, replacement, original, mutated string, decisive bool) {
	st.out = append(st.out, sqlMutation{op: op, original: original, mutated: mutated, head: st.head,
		decisive: decisive, sql: st.s[:start] + replacement + st.s[end:]})
}

// plainBegin is the sql-begin row.
func plainBegin(st *statement) {
	t := st.toks
	if t[0].upper() == "BEGIN" && len(t) > 1 && t[1].upper() == "IMMEDIATE" {
		st.add(SQLBegin, t[0].start, t[1].end, "BEGIN", st.s[t[0].start:t[1].end], "BEGIN", true)
	}
}

// dropWhereConjuncts is the sql-where-drop row.
func dropWhereConjuncts(st *statement) {
	for i, t := range st.toks {
		if t.upper() != "WHERE" {
			continue
		}
		conj := conjuncts(st.toks, i+1, clauseEnd(st.toks, i))
		if len(conj) < 2 {
			continue
		}
		for _, c := range conj {
			from, to := st.toks[c[0]].start, st.toks[c[1]-1].end
			frag := st.s[from:to]
			st.add(SQLWhereDrop, from, to, "(1 OR ("+frag+"))", frag, "", st.write)
		}
	}
}

// setItem is one assignment of a SET list: token indexes of its first
// token, its '=' and just past its last token.
type setItem struct{ first, eq, end int }

// setItems returns every assignment of every SET clause.
func (st *statement) setItems() []setItem {
	var out []setItem
	for i, t := range st.toks {
		if t.upper() != "SET" {
			continue
		}
		for _, item := range splitAt(st.toks, i+1, clauseEnd(st.toks, i), ",") {
			for k := item[0]; k < item[1]; k++ {
				if st.toks[k].depth == t.depth && st.toks[k].text == "=" {
					if k > item[0] && k+1 < item[1] {
						out = append(out, setItem{item[0], k, item[1]})
					}
					break
				}
			}
		}
	}
	return out
}

// dropSetItems is the sql-set-drop row.
func dropSetItems(st *statement) {
	for _, it := range st.setItems() {
		t := st.toks
		col := st.s[t[it.first].start:t[it.eq-1].end]
		expr := st.s[t[it.eq+1].start:t[it.end-1].end]
		from, to := t[it.first].start, t[it.end-1].end
		st.add(SQLSetDrop, from, to, col+" = CASE WHEN 1 THEN "+col+" ELSE ("+expr+") END", st.s[from:to], "", false)
	}
}

// flipComparisons is the sql-compare row; a SET list's '=' is an
// assignment, never flipped.
func flipComparisons(st *statement) {
	assignments := map[int]bool{}
	for _, it := range st.setItems() {
		assignments[it.eq] = true
	}
	for i, t := range st.toks {
		if assignments[i] {
			continue
		}
		decisive := st.write && insideWhere(st.toks, i)
		if flipped, ok := sqlFlip[t.text]; ok {
			st.add(SQLCompare, t.start, t.end, flipped, comparison(st.s, st.toks, i, t.text), comparison(st.s, st.toks, i, flipped), decisive)
		}
		if t.upper() != "IS" {
			continue
		}
		if i+1 < len(st.toks) && st.toks[i+1].upper() == "NOT" {
			st.add(SQLCompare, t.start, st.toks[i+1].end, "IS", comparison(st.s, st.toks, i, "IS NOT"), comparison(st.s, st.toks, i, "IS"), decisive)
		} else {
			st.add(SQLCompare, t.start, t.end, "IS NOT", comparison(st.s, st.toks, i, "IS"), comparison(st.s, st.toks, i, "IS NOT"), decisive)
		}
	}
}

// sqlFlip maps each comparison operator to the one a mutant puts in its place.
var sqlFlip = map[string]string{
	"<": "<=", "<=": "<", ">": ">=", ">=": ">",
	"=": "<>", "==": "<>", "<>": "=", "!=": "=",
}

// comparison shows a comparison with op in the middle: its left and right
// operand tokens around it.
func comparison(s string, toks []sqlToken, i int, op string) string {
	left, right := "", ""
	if i > 0 {
		left = toks[i-1].text + " "
	}
	j := i + 1
	if toks[i].upper() == "IS" && j < len(toks) && toks[j].upper() == "NOT" {
		j++
	}
	if j < len(toks) {
		right = " " + toks[j].text
	}
	return left + op + right
}

// statementHead is the statement's first three words, which tell apart
// identical fragments of different statements in one function.
func statementHead(toks []sqlToken) string {
	var words []string
	for _, t := range toks {
		if len(words) == 3 {
			break
		}
		words = append(words, t.text)
	}
	return strings.Join(words, " ")
}

// clauseEnds are the keywords that end a WHERE or a SET clause at its own depth.
var clauseEnds = map[string]bool{
	"RETURNING": true, "ORDER": true, "GROUP": true, "LIMIT": true, "UNION": true,
	"HAVING": true, "WINDOW": true, "ON": true, "FROM": true, "WHERE": true, "SELECT": true,
	"VALUES": true, "DO": true, "SET": true,
}

// clauseEnd returns the index just past the clause that starts at token i:
// the next clause keyword at the same depth, the parenthesis that holds
// the clause closing, or the end.
func clauseEnd(toks []sqlToken, i int) int {
	d := toks[i].depth
	for k := i + 1; k < len(toks); k++ {
		if toks[k].depth < d { // the parenthesis holding the clause closes
			return k
		}
		if toks[k].depth == d && clauseEnds[toks[k].upper()] {
			return k
		}
	}
	return len(toks)
}

// conjuncts splits toks[from:to] at the ANDs of its own depth, skipping the
// AND of a BETWEEN. Each result is a [start, end) pair of token indexes.
func conjuncts(toks []sqlToken, from, to int) [][2]int {
	if from >= to {
		return nil
	}
	d := toks[from].depth
	var out [][2]int
	start, between := from, false
	for k := from; k < to; k++ {
		if toks[k].depth != d {
			continue
		}
		switch toks[k].upper() {
		case "BETWEEN":
			between = true
		case "AND":
			if between {
				between = false
				continue
			}
			if k > start {
				out = append(out, [2]int{start, k})
			}
			start = k + 1
		}
	}
	if to > start {
		out = append(out, [2]int{start, to})
	}
	return out
}

// splitAt splits toks[from:to] at sep tokens of its own depth.
func splitAt(toks []sqlToken, from, to int, sep string) [][2]int {
	if from >= to {
		return nil
	}
	d := toks[from].depth
	var out [][2]int
	start := from
	for k := from; k < to; k++ {
		if toks[k].depth == d && toks[k].text == sep {
			out = append(out, [2]int{start, k})
			start = k + 1
		}
	}
	return append(out, [2]int{start, to})
}

// insideWhere reports whether token i lies inside a condition: a WHERE
// clause or a join's ON, at any depth (a subquery's included).
func insideWhere(toks []sqlToken, i int) bool {
	d := toks[i].depth
	for k := i - 1; k >= 0; k-- {
		switch {
		case toks[k].depth > d:
			continue // inside a nested parenthesis: not on the way out
		case toks[k].text == "(" && toks[k].depth < d:
			d = toks[k].depth // leave the parenthesis that holds the token
			continue
		}
		switch u := toks[k].upper(); {
		case u == "WHERE" || u == "ON":
			return true
		case clauseEnds[u]:
			return false
		}
	}
	return false
}
