package gate

// This file holds the arrivals log: every request the gate answered and
// what it answered, including attempts that rolled back. It shows the
// learner the difference between a token the gate received and the mark it
// committed; no decision reads it.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// logArrival appends one answered request to the arrivals log, in a
// transaction of its own: the log keeps the rolled-back attempts that the
// resource row forgot.
func (g *Gate) logArrival(ctx context.Context, req Request, result Result) error {
	return g.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO arrivals(fence, operation, units, result) VALUES (?, ?, ?, ?)`,
			req.Fence, req.Operation, req.Units, string(result)); err != nil {
			return fmt.Errorf("log arrival: %w", err)
		}
		return nil
	})
}
