package mailboxtest

// This file holds the ways a test damages a ledger: a table that refuses a
// write, a COMMIT that fails, a row no reader can decode. They are what a
// full disk, a constraint someone added, a damaged page or a hand edit
// would leave, and they let a test show that a failure is reported as an
// error, never as a refusal or a win, and changes nothing.

import (
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb/sqlitedbtest"
)

// BreakWrites makes every stmt ("INSERT" or "UPDATE") on table fail, and
// returns the function that repairs it. Reads still work, and nothing else
// in the ledger changes.
func (l *Ledger) BreakWrites(stmt, table string) (repair func()) {
	l.TB.Helper()
	trigger := fmt.Sprintf("%s_%s_broken", table, stmt)
	l.exec(fmt.Sprintf(`CREATE TRIGGER %s BEFORE %s ON %s
		BEGIN SELECT RAISE(ABORT, 'every %s on %s fails'); END`, trigger, stmt, table, stmt, table))
	return func() {
		l.TB.Helper()
		l.exec(`DROP TRIGGER ` + trigger)
	}
}

// EndTransactions makes every stmt ("INSERT" or "UPDATE") on table fail
// and take its whole transaction with it, as SQLite does for a full disk or
// an I/O error: a trigger raises ROLLBACK, so the statement fails and the
// transaction is already over when its caller decides to roll it back.
// That ROLLBACK then fails too. It returns the function that repairs it.
func (l *Ledger) EndTransactions(stmt, table string) (repair func()) {
	l.TB.Helper()
	trigger := fmt.Sprintf("%s_%s_ends_transaction", table, stmt)
	l.exec(fmt.Sprintf(`CREATE TRIGGER %s BEFORE %s ON %s
		BEGIN SELECT RAISE(ROLLBACK, 'every %s on %s ends its transaction'); END`, trigger, stmt, table, stmt, table))
	return func() {
		l.TB.Helper()
		l.exec(`DROP TRIGGER ` + trigger)
	}
}

// BreakCommits makes the COMMIT of every transaction that updates a
// message fail, and returns the function that repairs it. Every statement
// of such a transaction still succeeds: a trigger notes each update in a
// table whose foreign key can never be met, and that key is DEFERRABLE
// INITIALLY DEFERRED, so SQLite checks it only at COMMIT (and only because
// every connection turns foreign keys on).
func (l *Ledger) BreakCommits() (repair func()) {
	l.TB.Helper()
	l.exec(`CREATE TABLE IF NOT EXISTS commit_breaker_parent (id INTEGER PRIMARY KEY)`)
	l.exec(`CREATE TABLE IF NOT EXISTS commit_breaker (
		parent INTEGER REFERENCES commit_breaker_parent(id) DEFERRABLE INITIALLY DEFERRED
	)`)
	l.exec(`CREATE TRIGGER commits_broken AFTER UPDATE ON messages
		BEGIN INSERT INTO commit_breaker VALUES (1); END`)
	return func() {
		l.TB.Helper()
		l.exec(`DROP TRIGGER commits_broken`)
	}
}

// Unreadable is what Garble writes into an INTEGER column: text no reader
// can take for a number.
const Unreadable = "not-a-number"

// Garble writes Unreadable where message id keeps its retry count, so
// that the row can no longer be read as a Message. Nothing else in the
// row changes.
func (l *Ledger) Garble(id string) {
	l.TB.Helper()
	l.exec(`UPDATE messages SET retry_count = ? WHERE id = ?`, Unreadable, id)
}

// Row returns message id's committed row with every column written as an
// SQL literal, so that a row Get cannot read can still be compared whole:
//
//	('msg-1', 'Restock vanilla', 'CLAIMED', 'worker-a', 1, NULL, 0)
func (l *Ledger) Row(id string) string {
	l.TB.Helper()
	var row string
	err := l.first.QueryRow(l.TB.Context(), `SELECT '(' || quote(id) || ', ' || quote(body) || ', ' ||
		quote(state) || ', ' || quote(claim_owner) || ', ' || quote(fencing_token) || ', ' ||
		quote(claim_expires_at) || ', ' || quote(retry_count) || ')'
		FROM messages WHERE id = ?`, id).Scan(&row)
	if err != nil {
		l.TB.Fatalf("read the row of %s: %v", id, err)
	}
	return row
}

// exec runs one statement on the ledger's first connection, in a
// transaction of its own, and fails the test if it fails.
func (l *Ledger) exec(stmt string, args ...any) {
	l.TB.Helper()
	sqlitedbtest.Exec(l.TB, l.first, stmt, args...)
}
