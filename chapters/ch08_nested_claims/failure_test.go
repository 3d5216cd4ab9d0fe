package nestedclaims

// This file holds what happens when the ledger itself fails: a write it
// cannot make, or a row it cannot read. A failure is reported as an error,
// never as a refusal (which would send a caller off to retry, or to give
// the actor up, for a reason that is not true) and never as a success; and
// a failed write commits nothing. The damage is real SQLite: a trigger
// that aborts a write, or text where a number belongs (actortest).

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/actor"
	"github.com/fencelab/fencelab/internal/actor/actortest"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// notRefused fails the test unless err is an error and not a refusal;
// what names the request that met a failure, for the message.
func notRefused(t *testing.T, err error, what string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s met a failure of the ledger, and it was reported as a success", what)
		return
	}
	if r, ok := actor.ReasonOf(err); ok {
		t.Errorf("%s met a failure of the ledger, and it was reported as a refusal (%s): %v", what, r, err)
	}
}

// TestFailedWriteIsAnErrorAndCommitsNothing: each write of the lease and
// the attempt, made to fail, returns an error that is not a refusal, and
// the ledger is exactly as it was before, tokens included.
func TestFailedWriteIsAnErrorAndCommitsNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// do breaks one write and makes the request that needs it.
		do func(t *testing.T, o *actortest.Ledger, a *actor.Process, held actor.Lease) error
	}{{
		name: "add_assignment_twice",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, _ actor.Lease) error {
			return a.AddAssignment(t.Context(), "asg-1", "operator-b") // asg-1 names one assignment already
		},
	}, {
		name: "lease_row",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, _ actor.Lease) error {
			o.BreakWrites("INSERT", "actor_leases", "1")
			_, err := a.AcquireLease(t.Context(), "operator-b")
			return err
		},
	}, {
		name: "lease_token",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, _ actor.Lease) error {
			o.BreakWrites("INSERT", "lease_tokens", "1")
			_, err := a.AcquireLease(t.Context(), "operator-b")
			return err
		},
	}, {
		name: "lease_compare_and_set",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, _ actor.Lease) error {
			o.BreakWrites("UPDATE", "actor_leases", "1")
			_, err := a.AcquireLease(t.Context(), "operator-b")
			return err
		},
	}, {
		name: "release",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, held actor.Lease) error {
			o.BreakWrites("UPDATE", "actor_leases", "1")
			return a.ReleaseLease(t.Context(), held)
		},
	}, {
		name: "attempt_token",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, held actor.Lease) error {
			o.BreakWrites("INSERT", "lease_tokens", "1")
			_, err := a.AcquireAttempt(t.Context(), "asg-1", held)
			return err
		},
	}, {
		name: "attempt_on_assignment",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, held actor.Lease) error {
			o.BreakWrites("UPDATE", "assignments", "1")
			_, err := a.AcquireAttempt(t.Context(), "asg-1", held)
			return err
		},
	}, {
		name: "attempt_log",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, held actor.Lease) error {
			o.BreakWrites("INSERT", "execution_attempts", "1")
			_, err := a.AcquireAttempt(t.Context(), "asg-1", held)
			return err
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a := o.Process()
			held := actortest.Acquire(t, a, operator)
			before := o.State()

			err := tc.do(t, o, a, held)

			notRefused(t, err, "the request whose write failed ("+tc.name+")")
			assert.Check(t, cmp.DeepEqual(o.State(), before), "the failed write (%s) changed the ledger", tc.name)
		})
	}
}

// TestFailedRunWriteIsReported: process A runs asg-1 and one of the run's
// writes fails. The run returns an error that is not a refusal. A start
// that failed never invokes the provider; a terminal write that failed,
// with or without its line in the attempts log, leaves asg-1 RUNNING; and
// on all three the lease is given back. A release that failed is reported
// too, though asg-1 is COMPLETED: the lease stays held until it expires,
// and the caller must know the actor is stranded.
func TestFailedRunWriteIsReported(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name             string
		op, table, when  string // the write that fails (actortest.Ledger.BreakWrites)
		wantInvoked      bool
		wantState        actor.State
		wantLeaseKept    bool // A still holds the lease afterwards
		wantOutcomeInLog actor.State
	}{
		{name: "start", op: "UPDATE", table: "assignments", when: "NEW.state = 'RUNNING'",
			wantState: actor.Created},
		{name: "terminal_write", op: "UPDATE", table: "assignments", when: "NEW.state NOT IN ('CREATED', 'RUNNING')",
			wantInvoked: true, wantState: actor.Running},
		{name: "attempt_outcome", op: "UPDATE", table: "execution_attempts", when: "1",
			wantInvoked: true, wantState: actor.Running},
		{name: "release", op: "UPDATE", table: "actor_leases", when: "NEW.holder IS NULL",
			wantInvoked: true, wantState: actor.Completed, wantLeaseKept: true, wantOutcomeInLog: actor.Completed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a := o.Process()
			o.BreakWrites(tc.op, tc.table, tc.when)

			var invoked bool
			run, err := a.RunAssignment(t.Context(), "asg-1", complete(&invoked))

			notRefused(t, err, "process A's run, whose "+strings.ReplaceAll(tc.name, "_", " ")+" failed,")
			assert.Check(t, cmp.Equal(invoked, tc.wantInvoked), "process A's provider invoked (true) or not (false) when the %s failed", tc.name)
			got := o.Assignment("asg-1")
			assert.Check(t, cmp.Equal(got.State, tc.wantState), "asg-1 after the %s failed", tc.name)
			assert.Check(t, cmp.Equal(got.AttemptID, run.Attempt.ID), "asg-1's current attempt after the %s failed", tc.name)
			log := o.Attempts("asg-1")
			assert.Assert(t, cmp.Len(log, 1), "asg-1's attempts log")
			assert.Check(t, cmp.Equal(log[0].Outcome, string(tc.wantOutcomeInLog)), "the outcome in the attempts log after the %s failed", tc.name)
			holder := o.CurrentLease(operator).Holder
			if tc.wantLeaseKept {
				assert.Check(t, cmp.Equal(holder, a.ID()), "the operator's lease after its release failed")
			} else {
				assert.Check(t, cmp.Equal(holder, ""), "the operator's lease is still held after the %s failed: the actor is stranded", tc.name)
			}
		})
	}
}

// TestMissingOrUnreadableRowIsAnError: a request about an assignment that
// does not exist fails with actor.ErrNotFound and takes nothing, neither a
// lease nor a token. A lease or an assignment row the ledger cannot read
// is an error wherever it is read: never a refusal, which would name a
// reason nobody saw, and never a success.
func TestMissingOrUnreadableRowIsAnError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		do   func(t *testing.T, o *actortest.Ledger, a *actor.Process, invoked *bool) error
		// wantNotFound: the assignment is missing; the request must fail
		// with ErrNotFound and leave the ledger as it was.
		wantNotFound bool
		wantInvoked  bool
		leaseFirst   bool // A acquires the operator's lease before the case begins
	}{{
		name:         "run_of_missing_assignment",
		wantNotFound: true,
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, invoked *bool) error {
			_, err := a.RunAssignment(t.Context(), "asg-404", complete(invoked))
			return err
		},
	}, {
		name:         "attempt_on_missing_assignment",
		wantNotFound: true,
		leaseFirst:   true,
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, _ *bool) error {
			l, err := a.CurrentLease(t.Context(), operator) // acquired before the case began
			assert.NilError(t, err, "process A could not read its lease")
			_, err = a.AcquireAttempt(t.Context(), "asg-404", l)
			return err
		},
	}, {
		name: "run_of_unreadable_assignment",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, invoked *bool) error {
			o.GarbleAttemptToken("asg-1")
			_, err := a.RunAssignment(t.Context(), "asg-1", complete(invoked))
			return err
		},
	}, {
		name: "acquire_of_unreadable_lease",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, _ *bool) error {
			actortest.Acquire(t, o.Process(), operator)
			o.GarbleLease(operator)
			_, err := a.AcquireLease(t.Context(), operator)
			return err
		},
	}, {
		name: "attempt_under_unreadable_lease",
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, _ *bool) error {
			l := actortest.Acquire(t, a, operator)
			o.GarbleLease(operator)
			_, err := a.AcquireAttempt(t.Context(), "asg-1", l)
			return err
		},
	}, {
		name:        "terminal_write_of_unreadable_assignment",
		wantInvoked: true,
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, invoked *bool) error {
			_, err := a.RunAssignment(t.Context(), "asg-1", func(context.Context, actor.Assignment) (actor.State, error) {
				*invoked = true
				o.GarbleAttemptToken("asg-1")
				return actor.Completed, nil
			})
			return err
		},
	}, {
		name:        "terminal_write_under_unreadable_lease",
		wantInvoked: true,
		do: func(t *testing.T, o *actortest.Ledger, a *actor.Process, invoked *bool) error {
			_, err := a.RunAssignment(t.Context(), "asg-1", func(context.Context, actor.Assignment) (actor.State, error) {
				*invoked = true
				o.GarbleLease(operator)
				return actor.Completed, nil
			})
			return err
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := actortest.New(t, leaseMinutes)
			o.Add(operator, "asg-1")
			a := o.Process()
			if tc.leaseFirst {
				actortest.Acquire(t, a, operator)
			}
			before := o.State()

			var invoked bool
			err := tc.do(t, o, a, &invoked)

			notRefused(t, err, strings.ReplaceAll(tc.name, "_", " "))
			assert.Check(t, cmp.Equal(invoked, tc.wantInvoked), "the provider invoked (true) or not (false) in %s", tc.name)
			if tc.wantNotFound {
				assert.Check(t, errors.Is(err, actor.ErrNotFound), "%s = %v; want actor.ErrNotFound", tc.name, err)
				assert.Check(t, cmp.DeepEqual(o.State(), before), "%s changed the ledger: it took a lease, a token or an attempt", tc.name)
			}
		})
	}
}

// TestSchemaIsCreatedWholeOrNotAtAll: in a file where one of the ledger's
// names is already taken (here by an index another program made),
// CreateSchema fails with an error and creates none of the ledger's
// tables: a ledger is either ready or absent, never half made.
func TestSchemaIsCreatedWholeOrNotAtAll(t *testing.T) {
	t.Parallel()
	for _, taken := range []string{"lease_tokens", "actor_leases", "assignments", "execution_attempts"} {
		t.Run(taken, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			db := sqlitedbtest.Open(t, filepath.Join(t.TempDir(), "ledger.db"))
			exec := func(stmt string) {
				t.Helper()
				assert.NilError(t, db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
					_, err := tx.Exec(ctx, stmt)
					return err
				}), stmt)
			}
			exec(`CREATE TABLE other (x)`)
			exec(`CREATE INDEX ` + taken + ` ON other (x)`)

			err := actor.CreateSchema(ctx, db)

			assert.Check(t, err != nil, "CreateSchema in a file where %s names an index reported success", taken)
			var tables int
			assert.NilError(t, db.QueryRow(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table'
				AND name IN ('lease_tokens', 'actor_leases', 'assignments', 'execution_attempts')`).Scan(&tables))
			assert.Check(t, cmp.Equal(tables, 0), "tables of the ledger left behind by a CreateSchema that failed on %s", taken)
		})
	}
}
