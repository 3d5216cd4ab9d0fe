package sqlitedb

// This file holds the one way fencelab writes: a function run inside
// BEGIN IMMEDIATE on a single connection, committed if it returns nil and
// rolled back otherwise. BEGIN IMMEDIATE, COMMIT and ROLLBACK are prepared
// statements like any other (conn.go).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
)

// ErrRollbackFailed is wrapped, joined with fn's own error, in what
// Immediate returns when fn failed and the ROLLBACK that should undo its
// transaction failed too. Nothing was committed, but the transaction did
// not end the way the caller decided it should.
var ErrRollbackFailed = errors.New("sqlitedb: rollback failed")

// Tx is the connection a function passed to Immediate runs on. Every
// statement it runs belongs to the same BEGIN IMMEDIATE transaction and sees
// that transaction's own uncommitted writes.
//
// Each query is prepared the first time its connection sees that SQL text
// and reused after that; a query that fails to prepare returns the error.
type Tx struct {
	conn     *conn
	countErr error // see FailCounts; nil: counts are read from the driver
}

// Exec runs a statement inside the transaction.
//
// The result's RowsAffected is the count the driver reports, unless the
// DB was told to fail counts (FailCounts).
func (tx *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := tx.conn.exec(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	if tx.countErr != nil {
		return unreadCount{Result: res, err: tx.countErr}, nil
	}
	return res, nil
}

// QueryRow runs a query inside the transaction.
func (tx *Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := tx.conn.stmt(ctx, query)
	if err != nil {
		// As in DB.QueryRow: the unprepared query fails the same way and
		// Scan reports why.
		return tx.conn.sql.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}

// Immediate runs fn inside an explicit BEGIN IMMEDIATE transaction.
//
// BEGIN IMMEDIATE takes SQLite's write lock before fn reads anything, so
// whatever fn reads cannot change under it before it writes: two processes
// running Immediate on the same file take turns, whole transaction by whole
// transaction. (A plain BEGIN would defer the lock to the first write and let
// two transactions read the same row before either writes.)
//
// If fn returns nil the transaction commits; if fn returns an error or
// panics it rolls back, and Immediate returns fn's error unchanged, so
// callers can still test it with errors.Is and errors.As.
//
// If that ROLLBACK itself fails, Immediate returns fn's error joined with
// one wrapping ErrRollbackFailed, unless SQLite ended the transaction
// itself (see endedBySQLite): a full disk is then reported first and
// alone, not followed by a ROLLBACK that found nothing to roll back.
// errors.Is still finds fn's error in it, so a caller that treats fn's error as "rolled back, as decided" must ask
// about ErrRollbackFailed first.
//
// The connection is kept for the next transaction only if this one ended
// in a COMMIT or ROLLBACK that succeeded. After a failed BEGIN, COMMIT or
// ROLLBACK it is closed instead, which ends whatever transaction it might
// still hold: no connection goes back with a transaction open.
func (db *DB) Immediate(ctx context.Context, fn func(tx *Tx) error) (err error) {
	if db.pause != nil {
		db.pause()
	}
	conn, err := db.take(ctx)
	if err != nil {
		return fmt.Errorf("%s: connect: %w", db.path, err)
	}
	ended := false // the transaction ended in a COMMIT or ROLLBACK that succeeded
	defer func() { db.put(conn, ended) }()

	if _, err := conn.exec(ctx, "BEGIN IMMEDIATE"); err != nil {
		if IsBusy(err) {
			return fmt.Errorf("%s: begin immediate: another connection held the write lock for over %v: %w", db.path, db.wait, err)
		}
		return fmt.Errorf("%s: begin immediate: %w", db.path, err)
	}
	committed := false
	defer func() {
		if committed {
			return
		}
		// Roll back with a fresh context: the caller's may be the reason we
		// are here, and an open transaction must not outlive this call.
		_, rbErr := conn.exec(context.Background(), "ROLLBACK")
		switch {
		case rbErr == nil:
			ended = true
		case err == nil:
		case endedBySQLite(err, rbErr):
			// err is the whole story; the connection is closed all the same.
		default:
			err = errors.Join(err, fmt.Errorf("%s: %w: %w", db.path, ErrRollbackFailed, rbErr))
		}
	}()

	if db.pauseAfterBegin != nil {
		db.pauseAfterBegin()
	}
	if err := fn(&Tx{conn: conn, countErr: db.countErr}); err != nil {
		return err
	}
	if _, err := conn.exec(ctx, "COMMIT"); err != nil {
		return fmt.Errorf("%s: commit: %w", db.path, err)
	}
	committed, ended = true, true
	return nil
}

// PauseBeforeTransactions makes db call pause each time Immediate is about
// to begin a transaction: after everything its caller did first (reading
// the clock, committed reads), before BEGIN IMMEDIATE takes the write lock.
// That gap is real; nothing stops another process from writing in it. It
// is a test seam: a test uses the pause to let another worker act at
// exactly that moment, without sleeps. A DB nobody calls this on never
// pauses.
//
// Call it before db is used. pause runs on the caller's goroutine while it
// holds no lock, so it may use other connections to the same file, but it
// must not call Immediate on db itself.
func (db *DB) PauseBeforeTransactions(pause func()) { db.pause = pause }

// PauseAfterBegin makes db call pause each time Immediate has begun a
// transaction, before fn runs: BEGIN IMMEDIATE has succeeded, so the
// transaction is open and already holds the write lock, and nothing in it
// has been read or written yet. Like PauseBeforeTransactions it is a test
// seam: a test uses the pause to act at exactly that moment (cancel the
// caller's context, close db, let another worker try to write) without
// sleeps. A DB nobody calls this on never pauses.
//
// Call it before db is used. pause runs on the caller's goroutine while
// the transaction holds the write lock, so a write through another
// connection to the file waits for that lock, up to its wait for the lock
// (see OpenWaiting): open it with a short one, or give it a context that
// ends sooner. pause must not call Immediate on db
// itself.
func (db *DB) PauseAfterBegin(pause func()) { db.pauseAfterBegin = pause }

// FailCounts makes every result of a statement run inside db's
// transactions answer err from RowsAffected, as a driver may
// (database/sql lets it; modernc.org/sqlite never does). It is a test
// seam, as the pauses are: a compare-and-set reads its verdict from that
// count, and a test uses it to show that a verdict it cannot read is an
// error, neither a win nor a refusal. The statements themselves still run.
// A DB nobody calls this on reads every count.
//
// Call it while no transaction of db runs: from then on, every
// transaction begun reads no count, until FailCounts(nil). A test that
// wants one step's count to fail calls it from PauseBeforeTransactions.
func (db *DB) FailCounts(err error) { db.countErr = err }

// unreadCount is a statement's result whose count of changed rows cannot
// be read (FailCounts).
type unreadCount struct {
	sql.Result
	err error
}

// RowsAffected answers the error it was made with, and no count.
func (r unreadCount) RowsAffected() (int64, error) { return 0, r.err }

// The primary result codes endedBySQLite reads.
const (
	sqliteError = 1  // what a ROLLBACK that finds no transaction fails with
	sqliteFull  = 13 // the database or the disk is full
)

// endedBySQLite reports whether the transaction whose error was err had
// already been rolled back by SQLite when the ROLLBACK that failed with
// rbErr ran: err says the disk is full, after which SQLite may roll the
// whole transaction back by itself (its documentation, "Response To
// Errors Within A Transaction"), and the ROLLBACK found no transaction.
// An I/O error, no memory and an interrupt can end a transaction the
// same way; no test here can provoke them, so they keep the joined
// report, which says everything, if twice.
func endedBySQLite(err, rbErr error) bool {
	var e, rb *sqlite.Error
	if !errors.As(err, &e) || !errors.As(rbErr, &rb) {
		return false
	}
	return e.Code()&0xff == sqliteFull && rb.Code()&0xff == sqliteError
}
