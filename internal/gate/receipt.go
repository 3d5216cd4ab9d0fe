package gate

// This file holds operation receipts: the destination's memory of which
// business operation it applied, with which payload.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// receipt is what a decision needs of one row of the receipts table (the
// row also keeps the fence of the attempt that applied it, for the learner).
type receipt struct {
	Operation string
	Units     int64
}

// matches reports whether req is the very operation this receipt records:
// the same id and the same payload. Anything else sharing the id is a
// conflict, not a retry.
func (r receipt) matches(req Request) bool {
	return r.Operation == req.Operation && r.Units == req.Units
}

// lookupReceipt returns the receipt for operation, if there is one, as the
// transaction sees it.
func lookupReceipt(ctx context.Context, tx *sqlitedb.Tx, operation string) (receipt, bool, error) {
	r := receipt{Operation: operation}
	err := tx.QueryRow(ctx, `SELECT units FROM receipts WHERE operation = ?`, operation).Scan(&r.Units)
	if errors.Is(err, sql.ErrNoRows) {
		return receipt{}, false, nil
	}
	if err != nil {
		return receipt{}, false, fmt.Errorf("look up receipt %s: %w", operation, err)
	}
	return r, true, nil
}

// insertReceipt records that req's operation was applied with req's units.
func insertReceipt(ctx context.Context, tx *sqlitedb.Tx, req Request) error {
	if _, err := tx.Exec(ctx, `INSERT INTO receipts(operation, units, fence) VALUES (?, ?, ?)`,
		req.Operation, req.Units, req.Fence); err != nil {
		return fmt.Errorf("insert receipt %s: %w", req.Operation, err)
	}
	return nil
}
