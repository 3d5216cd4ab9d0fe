// Package redchapter is a drill fixture chapter whose tests fail without
// any weakening, so none of its weakenings can be graded.
package redchapter

import (
	"testing"

	"example.com/drillfixture/internal/counter"
)

func TestAlwaysRed(t *testing.T) {
	if got := counter.New(1).Value(); got != 1 {
		t.Errorf("a new counter's Value() = %d; this fixture test wants 1 so that it fails", got)
	}
}
