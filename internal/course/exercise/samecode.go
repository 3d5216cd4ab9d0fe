package exercise

// This file tells a change of code from a change of comments and spacing:
// a solution that only adds "// fixed" to the starting file, or a
// trailing space, is no repair.

import (
	"bytes"
	"go/scanner"
	"go/token"
)

// sameCode reports whether a and b hold the same Go tokens, comments and
// spacing aside. Text that does not scan as Go is compared byte for byte.
func sameCode(a, b []byte) bool {
	ta, okA := goTokens(a)
	tb, okB := goTokens(b)
	if !okA || !okB {
		return bytes.Equal(a, b)
	}
	if len(ta) != len(tb) {
		return false
	}
	for i := range ta {
		if ta[i] != tb[i] {
			return false
		}
	}
	return true
}

// lexeme is one token and its text (for a literal or a name).
type lexeme struct {
	tok token.Token
	lit string
}

// goTokens returns src's tokens without comments; ok is false if src does
// not scan as Go.
func goTokens(src []byte) (out []lexeme, ok bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	failed := false
	s.Init(file, src, func(token.Position, string) { failed = true }, 0) // mode 0: comments skipped
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON {
			lit = "" // an inserted semicolon is the same as a written one
		}
		out = append(out, lexeme{tok, lit})
	}
	return out, !failed
}
