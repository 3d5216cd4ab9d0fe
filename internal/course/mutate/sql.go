package mutate

// This file mutates SQL: the statements the mechanism sends to SQLite,
// where most of the course's guarantees live. A small tokenizer is enough:
// the mechanism's SQL is plain DML, and a mutant only needs to find the
// WHERE conjuncts, the comparisons and the SET assignments at their own
// parenthesis depth.

import (
	"strings"
	"unicode"
)

// sqlToken is one token of a statement, with its byte range in the text.
type sqlToken struct {
	text       string
	start, end int
	depth      int  // parenthesis depth the token stands at
	word       bool // an identifier or keyword
}

// upper returns the token as an upper-case keyword, or "" if it is not a word.
func (t sqlToken) upper() string {
	if !t.word {
		return ""
	}
	return strings.ToUpper(t.text)
}

// tokenizeSQL splits s into tokens, skipping white space. String literals
// ('...') and quoted identifiers ("...") are single tokens.
func tokenizeSQL(s string) []sqlToken {
	var toks []sqlToken
	depth := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(s) {
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c { // doubled quote: an escaped one
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(s))
			toks = append(toks, sqlToken{text: s[i:j], start: i, end: j, depth: depth})
			i = j
			continue
		case isWordByte(c):
			j := i
			for j < len(s) && (isWordByte(s[j]) || s[j] == '.') {
				j++
			}
			toks = append(toks, sqlToken{text: s[i:j], start: i, end: j, depth: depth, word: true})
			i = j
			continue
		case c == '?':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			toks = append(toks, sqlToken{text: s[i:j], start: i, end: j, depth: depth})
			i = j
			continue
		case c == '(':
			toks = append(toks, sqlToken{text: "(", start: i, end: i + 1, depth: depth})
			depth++
			i++
			continue
		case c == ')':
			depth--
			toks = append(toks, sqlToken{text: ")", start: i, end: i + 1, depth: depth})
			i++
			continue
		}
		// Operators: the two-byte ones first.
		if i+1 < len(s) {
			switch two := s[i : i+2]; two {
			case "<=", ">=", "<>", "!=", "==", "||":
				toks = append(toks, sqlToken{text: two, start: i, end: i + 2, depth: depth})
				i += 2
				continue
			}
		}
		toks = append(toks, sqlToken{text: s[i : i+1], start: i, end: i + 1, depth: depth})
		i++
	}
	return toks
}

func isWordByte(c byte) bool {
	return c == '_' || c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)))
}

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

// sqlMutation is one change to a statement's text.
type sqlMutation struct {
	op                Operator
	original, mutated string // the fragment, for people
	sql               string // the whole statement after the change
	where             bool   // the change is inside a WHERE clause
	head              string // the statement's first words, to tell identical fragments apart
}

// clauseEnds are the keywords that end a WHERE or a SET clause at its own depth.
var clauseEnds = map[string]bool{
	"RETURNING": true, "ORDER": true, "GROUP": true, "LIMIT": true, "UNION": true,
	"HAVING": true, "WINDOW": true, "ON": true, "FROM": true, "WHERE": true, "SELECT": true,
	"VALUES": true, "DO": true, "SET": true,
}

// mutateSQL returns every mutation of the statement s.
func mutateSQL(s string) []sqlMutation {
	toks := tokenizeSQL(s)
	if len(toks) == 0 {
		return nil
	}
	head := statementHead(toks)
	var out []sqlMutation
	add := func(op Operator, start, end int, replacement, original, mutated string, where bool) {
		out = append(out, sqlMutation{
			op: op, original: original, mutated: mutated, where: where, head: head,
			sql: s[:start] + replacement + s[end:],
		})
	}
	if toks[0].upper() == "BEGIN" && len(toks) > 1 && toks[1].upper() == "IMMEDIATE" {
		add(SQLBegin, toks[0].start, toks[1].end, "BEGIN", s[toks[0].start:toks[1].end], "BEGIN", false)
	}
	assignments := map[int]bool{} // token index of each SET assignment's '='
	for i, t := range toks {
		switch t.upper() {
		case "WHERE":
			end := clauseEnd(toks, i)
			conj := conjuncts(toks, i+1, end)
			if len(conj) < 2 {
				continue
			}
			for _, c := range conj {
				frag := s[toks[c[0]].start:toks[c[1]-1].end]
				// The conjunct's text stays (its ? placeholders still count
				// for the arguments) but can no longer refuse: 1 OR (...).
				add(SQLWhereDrop, toks[c[0]].start, toks[c[1]-1].end, "(1 OR ("+frag+"))",
					frag, "", true)
			}
		case "SET":
			end := clauseEnd(toks, i)
			for _, item := range splitAt(toks, i+1, end, ",") {
				eq := -1
				for k := item[0]; k < item[1]; k++ {
					if toks[k].depth == t.depth && (toks[k].text == "=") {
						eq = k
						break
					}
				}
				if eq <= item[0] || eq+1 >= item[1] {
					continue
				}
				assignments[eq] = true
				col := s[toks[item[0]].start:toks[eq-1].end]
				expr := s[toks[eq+1].start:toks[item[1]-1].end]
				frag := s[toks[item[0]].start:toks[item[1]-1].end]
				// The column keeps its value; the expression stays, never
				// taken, so its placeholders still count.
				add(SQLSetDrop, toks[item[0]].start, toks[item[1]-1].end,
					col+" = CASE WHEN 1 THEN "+col+" ELSE ("+expr+") END", frag, "", false)
			}
		}
	}
	for i, t := range toks {
		if assignments[i] {
			continue
		}
		inWhere := insideWhere(toks, i)
		switch t.text {
		case "<", "<=", ">", ">=", "=", "==", "<>", "!=":
			flipped := sqlFlip[t.text]
			add(SQLCompare, t.start, t.end, flipped, comparison(s, toks, i, t.text), comparison(s, toks, i, flipped), inWhere)
		}
		if t.upper() == "IS" {
			if i+1 < len(toks) && toks[i+1].upper() == "NOT" {
				add(SQLCompare, t.start, toks[i+1].end, "IS", comparison(s, toks, i, "IS NOT"), comparison(s, toks, i, "IS"), inWhere)
			} else {
				add(SQLCompare, t.start, t.end, "IS NOT", comparison(s, toks, i, "IS"), comparison(s, toks, i, "IS NOT"), inWhere)
			}
		}
	}
	return out
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
