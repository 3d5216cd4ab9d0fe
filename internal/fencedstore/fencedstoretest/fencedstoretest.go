// Package fencedstoretest gives chapter tests a fresh fenced store on a
// real SQLite file under t.TempDir(), and stores on separate connections
// to it, as separate writer processes would have.
package fencedstoretest

import (
	"path/filepath"
	"testing"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// Destination is one test's store file.
type Destination struct {
	TB       testing.TB
	Path     string
	observer *fencedstore.Store // on a connection no writer uses
}

// New creates a store file with its schema and the given keys, each with
// mark 0 and no writes.
func New(tb testing.TB, keys ...string) *Destination {
	tb.Helper()
	d := &Destination{TB: tb, Path: filepath.Join(tb.TempDir(), "destination.db")}
	db := d.Connect()
	if err := fencedstore.CreateSchema(tb.Context(), db); err != nil {
		tb.Fatalf("create store schema: %v", err)
	}
	d.observer = fencedstore.Open(db, fencedstore.Fence)
	for _, k := range keys {
		if err := d.observer.Add(tb.Context(), k); err != nil {
			tb.Fatalf("%v", err)
		}
	}
	return d
}

// Connect opens another, separate connection pool to the file.
func (d *Destination) Connect() *sqlitedb.DB {
	d.TB.Helper()
	return sqlitedbtest.Open(d.TB, d.Path)
}

// Store returns a store judging by contract on a new connection: what one
// writer's process would have.
func (d *Destination) Store(contract fencedstore.Contract) *fencedstore.Store {
	d.TB.Helper()
	return fencedstore.Open(d.Connect(), contract)
}

// Get returns key's committed state, read on the observer's connection.
func (d *Destination) Get(key string) fencedstore.Resource {
	d.TB.Helper()
	r, err := d.observer.Get(d.TB.Context(), key)
	if err != nil {
		d.TB.Fatalf("%v", err)
	}
	return r
}

// Accepted returns the log of accepted calls, read on the observer's
// connection.
func (d *Destination) Accepted() []fencedstore.Entry {
	d.TB.Helper()
	log, err := d.observer.Accepted(d.TB.Context())
	if err != nil {
		d.TB.Fatalf("%v", err)
	}
	return log
}

// UncheckpointedFrames runs a passive checkpoint of the store's file and
// returns how many frames of its write-ahead log it could not copy back:
// 0 unless some connection still reads an older snapshot.
func (d *Destination) UncheckpointedFrames() int {
	d.TB.Helper()
	var busy, frames, copied int
	if err := d.Connect().QueryRow(d.TB.Context(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied); err != nil {
		d.TB.Fatalf("store: checkpoint: %v", err)
	}
	return frames - copied
}
