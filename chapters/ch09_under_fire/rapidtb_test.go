package underfire

// This file holds the seam that lets a replay run inside a rapid property.
// The replays take a testing.TB, as a stored case's test hands them; a
// property has only rapid's T, the same for rapid.Check and for
// rapid.MakeFuzz. rapidTB gives the replays what they call on a TB.

import (
	"context"
	"os"
	"testing"

	"pgregory.net/rapid"
)

// rapidTB is a testing.TB made of a rapid.T. It has the methods the
// replays, ledgerDir and tokentest.Minted call; its embedded TB is nil,
// so any other method panics, which a test of this file's callers shows
// at once.
type rapidTB struct {
	testing.TB
	t *rapid.T
}

func (r rapidTB) Helper()                    { r.t.Helper() }
func (r rapidTB) Name() string               { return r.t.Name() }
func (r rapidTB) Context() context.Context   { return r.t.Context() }
func (r rapidTB) Cleanup(f func())           { r.t.Cleanup(f) }
func (r rapidTB) Logf(f string, args ...any) { r.t.Logf(f, args...) }
func (r rapidTB) Fatal(args ...any)          { r.t.Fatal(args...) }
func (r rapidTB) Fatalf(f string, args ...any) {
	r.t.Fatalf(f, args...)
}

// TempDir returns a new directory that goes when the property returns.
func (r rapidTB) TempDir() string {
	dir, err := os.MkdirTemp("", "ch09-")
	if err != nil {
		r.t.Fatalf("temp dir: %v", err)
	}
	r.t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
