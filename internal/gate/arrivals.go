package gate

// This file holds the arrivals log: every request the gate answered and
// what it answered, including attempts that rolled back. It shows the
// learner the difference between a token the gate received and the mark it
// committed; no decision reads it.

import (
	"context"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// ErrNotLogged is returned, wrapped, by Apply together with a valid Outcome
// when an attempt whose transaction rolled back (Conflict, RolledBack) could
// not be written to the arrivals log afterwards. The outcome stands:
// nothing the attempt did was committed, and the log is a diary no decision
// reads. A caller tells it apart with errors.Is and must not retry because
// of it.
var ErrNotLogged = errors.New("gate: arrival not logged")

// logArrival appends one answered request to the arrivals log inside tx,
// so the line commits with the decision or not at all.
func logArrival(ctx context.Context, tx *sqlitedb.Tx, req Request, result Result) error {
	if _, err := tx.Exec(ctx, `INSERT INTO arrivals(fence, operation, units, result) VALUES (?, ?, ?, ?)`,
		req.Fence, req.Operation, req.Units, string(result)); err != nil {
		return fmt.Errorf("log arrival: %w", err)
	}
	return nil
}

// logOnItsOwn appends one answered request to the arrivals log in a
// transaction of its own: the log keeps the rolled-back attempts that the
// resource row forgot. A failure wraps ErrNotLogged.
func (g *Gate) logOnItsOwn(ctx context.Context, req Request, result Result) error {
	err := g.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		return logArrival(ctx, tx, req, result)
	})
	if err != nil {
		return fmt.Errorf("%w: %s with fence %d, answered %s: %w", ErrNotLogged, req.Operation, req.Fence, result, err)
	}
	return nil
}

// Arrival is one line of the arrivals log: a request and what the gate
// answered it.
type Arrival struct {
	Fence     int64
	Operation string
	Units     int64
	Result    Result
}

// Arrivals returns the committed arrivals log, oldest line first.
func (g *Gate) Arrivals(ctx context.Context) ([]Arrival, error) {
	rows, err := g.db.Query(ctx, `SELECT fence, operation, units, result FROM arrivals ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("read arrivals: %w", err)
	}
	defer rows.Close()
	log := []Arrival{}
	for rows.Next() {
		var a Arrival
		if err := rows.Scan(&a.Fence, &a.Operation, &a.Units, &a.Result); err != nil {
			return nil, fmt.Errorf("read arrivals: %w", err)
		}
		log = append(log, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read arrivals: %w", err)
	}
	return log, nil
}
