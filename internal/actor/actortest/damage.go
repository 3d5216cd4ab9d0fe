package actortest

// This file holds the ways a test damages a ledger: a table that refuses
// writes and a row no reader can decode. They are what a full disk, a
// damaged page or a hand edit would leave, and they let a test show that a
// failure is reported as an error, never as a refusal or a success.

import (
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// BreakWrites makes the ledger abort every op ("INSERT" or "UPDATE") on
// table whose new row satisfies when, a SQL condition on NEW ("1" for
// every row), and returns the function that repairs it. Nothing else in
// the ledger changes.
func (l *Ledger) BreakWrites(op, table, when string) (repair func()) {
	l.TB.Helper()
	name := fmt.Sprintf("broken_%s_%s", op, table)
	l.Exec(fmt.Sprintf(`CREATE TRIGGER %s BEFORE %s ON %s WHEN %s
		BEGIN SELECT RAISE(ABORT, 'the %s table is broken'); END`, name, op, table, when, table))
	return func() {
		l.TB.Helper()
		l.Exec("DROP TRIGGER " + name)
	}
}

// Unreadable is what GarbleLease and GarbleAttemptToken write into an
// INTEGER column: text no reader can take for a number.
const Unreadable = "not-a-number"

// GarbleLease overwrites the token of actorName's lease with Unreadable.
func (l *Ledger) GarbleLease(actorName string) {
	l.TB.Helper()
	l.Exec(`UPDATE actor_leases SET token = ? WHERE actor = ?`, Unreadable, actorName)
}

// GarbleAttemptToken overwrites assignment id's attempt token with
// Unreadable.
func (l *Ledger) GarbleAttemptToken(id string) {
	l.TB.Helper()
	l.Exec(`UPDATE assignments SET attempt_token = ? WHERE id = ?`, Unreadable, id)
}

// Exec runs one statement on the ledger, in a transaction of its own, and
// fails the test if it fails.
func (l *Ledger) Exec(stmt string, args ...any) {
	l.TB.Helper()
	ctx := l.TB.Context()
	err := l.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, stmt, args...)
		return err
	})
	if err != nil {
		l.TB.Fatalf("ledger: %v", err)
	}
}
