package exercise

// This file makes a build exercise's starting point: one mechanism
// function with its body replaced by a stub that fails clearly, and the
// imports only the old body needed dropped, so the file still compiles.

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoFunc is returned (wrapped) when a file declares no function of the
// name an exercise gives.
var ErrNoFunc = errors.New("exercise: no such function")

// stubbed returns src, the contents of file, with the body of function
// name replaced by body (Go statements, one tab-indented line each).
func stubbed(file string, src []byte, name, body string) ([]byte, error) {
	fset, f, err := parseGo(file, src)
	if err != nil {
		return nil, fmt.Errorf("stub %s: %w", name, err)
	}
	fd, ok := findFunc(f, name)
	if !ok || fd.Body == nil {
		return nil, fmt.Errorf("stub %s in %s: %w", name, file, ErrNoFunc)
	}
	open := fset.Position(fd.Body.Lbrace).Offset
	closing := fset.Position(fd.Body.Rbrace).Offset
	var b strings.Builder
	b.Write(src[:open+1])
	b.WriteString("\n")
	b.WriteString(strings.TrimRight(body, "\n"))
	b.WriteString("\n")
	b.Write(src[closing:])
	out, err := pruneImports([]byte(b.String()))
	if err != nil {
		return nil, fmt.Errorf("stub %s in %s: %w", name, file, err)
	}
	return out, nil
}
