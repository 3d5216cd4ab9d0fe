package mutate

// This file splits the SQL the mechanism sends into tokens. A small
// tokenizer is enough: the mechanism's SQL is plain DML, and a mutant only
// needs to find the WHERE conjuncts, the comparisons and the SET
// assignments at their own parenthesis depth.

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
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		if c == ')' {
			depth--
		}
		end, word := tokenEnd(s, i)
		toks = append(toks, sqlToken{text: s[i:end], start: i, end: end, depth: depth, word: word})
		if c == '(' {
			depth++
		}
		i = end
	}
	return toks
}

// tokenEnd returns where the token starting at s[i] ends, and whether it
// is a word.
func tokenEnd(s string, i int) (end int, word bool) {
	c := s[i]
	switch {
	case c == '\'' || c == '"':
		return quotedEnd(s, i), false
	case isWordByte(c):
		j := i
		for j < len(s) && (isWordByte(s[j]) || s[j] == '.') {
			j++
		}
		return j, true
	case c == '?':
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j, false
	}
	if i+1 < len(s) {
		switch s[i : i+2] {
		case "<=", ">=", "<>", "!=", "==", "||":
			return i + 2, false
		}
	}
	return i + 1, false
}

// quotedEnd returns the end of the quoted token starting at s[i]; a
// doubled quote inside is an escaped one.
func quotedEnd(s string, i int) int {
	c := s[i]
	j := i + 1
	for j < len(s) {
		if s[j] == c {
			if j+1 < len(s) && s[j+1] == c {
				j += 2
				continue
			}
			break
		}
		j++
	}
	return min(j+1, len(s))
}

func isWordByte(c byte) bool {
	return c == '_' || c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)))
}
