package gate

// This file holds Apply: one request's whole admission decision, its effect
// and its receipt, as one transaction that commits or rolls back as a unit,
// together with the request's line in the arrivals log when it commits.

import (
	"context"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Request is one call a worker makes to the destination.
type Request struct {
	Fence     int64  // the fence the worker's queue lease carried
	Operation string // the business operation, e.g. OP-1
	Units     int64  // how many units the operation adds
	// FailAfterEffect triggers the controlled failure: the transaction
	// stops after its effect and before the receipt insert, records its
	// own uncommitted view, and rolls back. It stands for a bug or a
	// crash-free abort in the middle of the work, nothing more.
	FailAfterEffect bool
}

// Result is what the destination did with a request.
type Result string

// The results of Apply.
const (
	Applied    Result = "applied"     // admitted: the effect committed (with its receipt, under FenceReceipt)
	Fenced     Result = "fenced"      // the fence is below the committed mark: nothing changed
	Replayed   Result = "replayed"    // a matching receipt exists: no second effect, the mark advanced
	Conflict   Result = "conflict"    // same operation, different units: rolled back, nothing changed
	RolledBack Result = "rolled_back" // the controlled failure: rolled back, nothing changed
)

// Outcome is Apply's answer.
type Outcome struct {
	Result Result
	// UncommittedView is set for RolledBack: the state the failing
	// transaction saw of itself just before it rolled back. No other
	// connection ever saw it.
	UncommittedView *State
}

// errRollback makes Immediate roll back an attempt whose Outcome is already
// decided (Conflict, RolledBack). It never leaves Apply.
var errRollback = errors.New("gate: roll the attempt back")

// Apply decides whether req may change the destination and, if so, applies
// it. Under the Fence and FenceReceipt contracts, in one BEGIN IMMEDIATE
// transaction:
//
//  1. the fence check: admitted unless req.Fence < the committed mark (an
//     equal fence is admitted); admission moves the mark up to req.Fence;
//  2. under FenceReceipt, the receipt lookup: a receipt for the same
//     operation and units means Replayed (the mark advance commits, the
//     effect does not happen again); different units mean Conflict, and
//     the whole transaction, tentative mark included, rolls back;
//  3. the effect: the counter grows by req.Units;
//  4. the controlled failure point, if req asks for it;
//  5. under FenceReceipt, the receipt insert.
//
// Under None only the effect (and the failure point) happen.
//
// Every answer is written to the arrivals log. An answer that commits
// (Applied, Replayed, Fenced) writes its line in the same transaction, so
// the decision and its line commit together or not at all. An answer whose
// transaction rolled back (Conflict, RolledBack) writes its line afterwards,
// in a transaction of its own.
//
// An error from Apply therefore means nothing committed: the destination is
// as it was, and the caller may retry. That includes an attempt whose
// ROLLBACK failed: Apply returns no answer for it and an error wrapping
// sqlitedb.ErrRollbackFailed. The one exception carries its answer: if the
// line of a rolled-back attempt cannot be written, Apply returns the
// Outcome together with an error wrapping ErrNotLogged. That outcome stands
// (nothing was committed either way); do not retry because of it.
func (g *Gate) Apply(ctx context.Context, req Request) (Outcome, error) {
	var out Outcome
	err := g.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		var err error
		if out, err = g.decide(ctx, tx, req); err != nil {
			return err
		}
		return logArrival(ctx, tx, req, out.Result)
	})
	return g.answer(ctx, req, out, err)
}

// answer turns what Immediate returned for req's transaction into Apply's
// answer: out if it committed; out, with its line written on its own, if
// decide rolled it back on purpose; an error otherwise.
//
// A failed ROLLBACK joins errRollback with an error wrapping
// sqlitedb.ErrRollbackFailed, so errors.Is finds errRollback in it too; it
// is asked about first, and reported. Nothing was committed, but the
// attempt did not end the way decide said it must, and writing its line
// as if it had would hide that.
func (g *Gate) answer(ctx context.Context, req Request, out Outcome, err error) (Outcome, error) {
	switch {
	case err == nil:
		return out, nil
	case errors.Is(err, sqlitedb.ErrRollbackFailed):
		return Outcome{}, fmt.Errorf("apply %s with fence %d, answered %s: %w", req.Operation, req.Fence, out.Result, err)
	case errors.Is(err, errRollback):
		if err := g.logOnItsOwn(ctx, req, out.Result); err != nil {
			return out, err
		}
		return out, nil
	}
	return Outcome{}, fmt.Errorf("apply %s with fence %d: %w", req.Operation, req.Fence, err)
}

// decide runs steps 1 to 5 of Apply inside tx and returns the answer. For
// Conflict and RolledBack it also returns errRollback, so that the
// transaction rolls back.
func (g *Gate) decide(ctx context.Context, tx *sqlitedb.Tx, req Request) (Outcome, error) {
	if g.contract != None {
		admitted, err := admit(ctx, tx, req.Fence)
		if err != nil {
			return Outcome{}, err
		}
		if !admitted {
			return Outcome{Result: Fenced}, nil
		}
	}
	if g.contract == FenceReceipt {
		prior, found, err := lookupReceipt(ctx, tx, req.Operation)
		if err != nil {
			return Outcome{}, err
		}
		if found && !prior.matches(req) {
			return Outcome{Result: Conflict}, errRollback
		}
		if found {
			return Outcome{Result: Replayed}, nil
		}
	}
	if err := addUnits(ctx, tx, req.Units); err != nil {
		return Outcome{}, err
	}
	if req.FailAfterEffect {
		view, err := scanState(tx.QueryRow(ctx, selectState))
		if err != nil {
			return Outcome{}, err
		}
		return Outcome{Result: RolledBack, UncommittedView: &view}, errRollback
	}
	if g.contract == FenceReceipt {
		if err := insertReceipt(ctx, tx, req); err != nil {
			return Outcome{}, err
		}
	}
	return Outcome{Result: Applied}, nil
}

// admit is the fence check. The comparison lives in the UPDATE's WHERE
// clause, against the mark this transaction reads under the write lock,
// and RowsAffected decides: a fence below the committed mark changes no row
// and is not admitted; an admitted fence becomes the (tentative) mark.
func admit(ctx context.Context, tx *sqlitedb.Tx, fence int64) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE resource SET highest_fence = ?1
		WHERE id = 1 AND NOT (?1 < highest_fence)`, fence)
	if err != nil {
		return false, fmt.Errorf("fence check: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("fence check: %w", err)
	}
	return n == 1, nil
}

// addUnits is the effect: the one change the work exists to make.
func addUnits(ctx context.Context, tx *sqlitedb.Tx, units int64) error {
	if _, err := tx.Exec(ctx, `UPDATE resource SET units = units + ? WHERE id = 1`, units); err != nil {
		return fmt.Errorf("add %d units: %w", units, err)
	}
	return nil
}
