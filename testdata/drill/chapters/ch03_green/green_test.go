// Package greenchapter is a drill fixture chapter that passes the graded
// check: its one test is caught by its one weakening.
package greenchapter

import (
	"errors"
	"testing"

	"example.com/drillfixture/internal/counter"
)

func TestCeilingHolds(t *testing.T) {
	c := counter.New(1)
	c.Add()
	if err := c.Add(); !errors.Is(err, counter.ErrFull) {
		t.Errorf("second Add on a ceiling of 1 = %v; want ErrFull", err)
	}
}
