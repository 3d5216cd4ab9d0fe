// Package counterchapter is the drill fixture's chapter: one test per
// property of the counter, named so the checker can be graded on it.
package counterchapter

import (
	"errors"
	"testing"
	"time"

	"example.com/drillfixture/internal/counter"
)

func TestAddCountsUp(t *testing.T) {
	t.Parallel()
	c := counter.New(3)
	if err := c.Add(); err != nil {
		t.Fatalf("Add() = %v; want nil", err)
	}
	if got := c.Value(); got != 1 {
		t.Errorf("Value() after one Add = %d; want 1", got)
	}
}

func TestCeilingRefusesAdd(t *testing.T) {
	t.Parallel()
	c := counter.New(2)
	c.Add()
	c.Add()
	if err := c.Add(); !errors.Is(err, counter.ErrFull) {
		t.Errorf("third Add on a ceiling of 2 = %v, value %d: the counter passed its ceiling", err, c.Value())
	}
}

func TestDurableCounterKeepsValue(t *testing.T) {
	t.Parallel()
	if !counter.Durable() {
		t.Skip("counts do not survive a restart here")
	}
	c := counter.New(1)
	c.Add()
	if got := c.Value(); got != 1 {
		t.Errorf("Value() = %d; want 1", got)
	}
}

func TestSettles(t *testing.T) {
	t.Parallel()
	c := counter.New(1)
	for !c.Settled() {
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLabelIsNotEmpty(t *testing.T) {
	t.Parallel()
	if counter.New(1).Label() == "" {
		t.Error("Label() is empty")
	}
}
