package sqlitedb

// This file keeps connections open between transactions, each with the
// statements it has already prepared, so that the same SQL is not parsed
// again for every call. It is invisible to the mechanism packages: they
// still pass their SQL text to Tx.Exec and Tx.QueryRow.

import (
	"context"
	"database/sql"
	"database/sql/driver"
)

// keptConns is how many idle connections a DB keeps for its next
// transactions. A program writes through one DB at a time per goroutine, and
// one writer at a time gets the lock, so two cover a writer and the one
// waiting behind it; a connection beyond that is closed when its
// transaction ends.
const keptConns = 2

// conn is one connection a DB keeps, and every statement prepared on it,
// by SQL text. Only one transaction uses a conn at a time.
type conn struct {
	sql      *sql.Conn
	stmts    map[string]*sql.Stmt
	prepared int // how many times a statement was prepared on it
}

// stmt returns query prepared on c, preparing it the first time c sees it.
// A statement that fails to prepare is not kept, so the next call tries
// again.
func (c *conn) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := c.stmts[query]; ok {
		return s, nil
	}
	s, err := c.sql.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	c.stmts[query] = s
	c.prepared++
	return s, nil
}

// exec runs query, prepared once, with args.
func (c *conn) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	s, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.ExecContext(ctx, args...)
}

// close closes every statement prepared on c, then the connection itself,
// for good instead of handing it back to database/sql's pool.
//
// The order matters. database/sql does not track statements prepared on a
// *sql.Conn, and SQLite does not really close a connection that still has
// statements: it keeps it, and any transaction it holds, and so the write
// lock, until the last one is finalized. Returning driver.ErrBadConn from
// Raw is how database/sql is told to discard a connection; Raw's own error
// is that same ErrBadConn, or ErrConnDone if the connection was closed
// already, and a statement's Close can only repeat the error of its last
// run: none of them leaves anything to do.
func (c *conn) close() {
	for _, s := range c.stmts {
		_ = s.Close()
	}
	_ = c.sql.Raw(func(any) error { return driver.ErrBadConn })
}

// take returns a kept connection, or opens a new one under ctx if none is
// idle.
func (db *DB) take(ctx context.Context) (*conn, error) {
	db.mu.Lock()
	if n := len(db.idle); n > 0 {
		c := db.idle[n-1]
		db.idle = db.idle[:n-1]
		db.mu.Unlock()
		return c, nil
	}
	db.mu.Unlock()
	sc, err := db.sql.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return &conn{sql: sc, stmts: map[string]*sql.Stmt{}}, nil
}

// put ends a transaction's use of c. A clean connection (its transaction
// ended in a COMMIT or ROLLBACK that succeeded) is kept for the next one
// while fewer than keptConns are idle and db is open. Any other connection
// is closed: one whose BEGIN, COMMIT or ROLLBACK failed may still have a
// transaction open, and closing it is the one sure way to end that
// transaction and release the write lock.
func (db *DB) put(c *conn, clean bool) {
	db.mu.Lock()
	if clean && !db.closed && len(db.idle) < keptConns {
		db.idle = append(db.idle, c)
		db.mu.Unlock()
		return
	}
	db.mu.Unlock()
	c.close()
}

// readStmt returns query prepared for reads outside a transaction.
// database/sql prepares it again on each pooled connection that runs it,
// once per connection.
func (db *DB) readStmt(ctx context.Context, query string) (*sql.Stmt, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if s, ok := db.reads[query]; ok {
		return s, nil
	}
	s, err := db.sql.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	db.reads[query] = s
	return s, nil
}
