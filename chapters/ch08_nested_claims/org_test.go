package nestedclaims

// This file gives each test a fresh ledger and processes on it: each
// process has its own identity and its own connection, and all of them
// read one logical clock.

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

var ctx = context.Background()

// The actor every test works for, and how long its leases last.
const (
	operator     = "operator-course"
	leaseMinutes = 15
)

// org is one test's ledger and the clock its processes share.
type org struct {
	tb    testing.TB
	path  string
	clock *clock.Logical
	db    *sqlitedb.DB // for set-up and the test's own committed reads
	admin *actor.Process
}

func newOrg(tb testing.TB) *org {
	tb.Helper()
	o := &org{tb: tb, path: filepath.Join(tb.TempDir(), "ledger.db"), clock: new(clock.Logical)}
	o.db = o.connect()
	if err := actor.CreateSchema(ctx, o.db); err != nil {
		tb.Fatalf("create actor schema: %v", err)
	}
	if err := mailbox.CreateSchema(ctx, o.db); err != nil {
		tb.Fatalf("create mailbox schema: %v", err)
	}
	o.admin = actor.Open(o.db, o.clock, leaseMinutes)
	return o
}

func (o *org) connect() *sqlitedb.DB {
	o.tb.Helper()
	return sqlitedbtest.Open(o.tb, o.path)
}

// process starts a new process on its own connection: what a second
// operating-system process would have.
func (o *org) process() *actor.Process {
	o.tb.Helper()
	return actor.Open(o.connect(), o.clock, leaseMinutes)
}

// at moves the shared clock to minute.
func (o *org) at(minute int64) { o.clock.Set(minute) }

// add stores CREATED assignments for the operator.
func (o *org) add(ids ...string) {
	o.tb.Helper()
	for _, id := range ids {
		if err := o.admin.AddAssignment(ctx, id, operator); err != nil {
			o.tb.Fatalf("add %s: %v", id, err)
		}
	}
}

// assignment returns an assignment's committed state.
func (o *org) assignment(id string) actor.Assignment {
	o.tb.Helper()
	a, err := o.admin.Assignment(ctx, id)
	if err != nil {
		o.tb.Fatalf("read %s: %v", id, err)
	}
	return a
}

// lease returns the operator's committed lease.
func (o *org) lease() actor.Lease {
	o.tb.Helper()
	l, err := o.admin.CurrentLease(ctx, operator)
	if err != nil {
		o.tb.Fatalf("read lease: %v", err)
	}
	return l
}

// acquire acquires the operator's lease for p, failing the test unless it
// wins.
func acquire(tb testing.TB, p *actor.Process) actor.Lease {
	tb.Helper()
	l, err := p.AcquireLease(ctx, operator)
	if err != nil {
		tb.Fatalf("process %s acquires %s: %v; want a win", p.ID(), operator, err)
	}
	return l
}

// granted is what reason reports when a request was not refused: not a
// refusal reason, but it reads as one in a failure message.
const granted actor.Reason = "granted"

// reason returns the refusal reason of err, or granted if err is nil,
// failing the test on any other error.
func reason(tb testing.TB, err error) actor.Reason {
	tb.Helper()
	if err == nil {
		return granted
	}
	r, ok := actor.ReasonOf(err)
	if !ok {
		tb.Fatalf("unexpected error (not a refusal): %v", err)
	}
	return r
}

// complete is a provider that records it was invoked and completes.
func complete(invoked *bool) actor.Provider {
	return func(context.Context, actor.Assignment) (actor.State, error) {
		*invoked = true
		return actor.Completed, nil
	}
}
