// Package model is a package under chapters/ that uses the mechanism but
// has no tests of its own, like chapter 9's reference models: it has no
// test binary, so it can kill no mutant and must not be built as a chapter.
package model

import "example.com/mutatefixture/internal/ledger"

// Full reports whether n takes reach the ledger's limit.
func Full(n int) bool { return n >= ledger.Limit }
