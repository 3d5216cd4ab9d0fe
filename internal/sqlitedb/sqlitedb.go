// Package sqlitedb opens fencelab's SQLite files and runs every write that
// decides authority inside an explicit BEGIN IMMEDIATE transaction.
//
// It is the only place in fencelab that opens a database or begins a
// transaction, so the pragmas and the transaction discipline the chapters
// rely on are decided once, here. It also keeps connections open between
// transactions and prepares each statement once per connection, so callers
// pass plain SQL text and never manage a statement themselves.
package sqlitedb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver; no cgo
)

// lockWait bounds how long a statement of a DB that Open opened waits for
// another connection's write lock before it fails with SQLITE_BUSY.
// Contending workers in the chapters hold the lock for microseconds; five
// seconds is generous enough that a busy error means something is really
// stuck.
const lockWait = 5 * time.Second

// DB is one SQLite file, opened with fencelab's pragmas. It is safe for
// concurrent use.
type DB struct {
	sql             *sql.DB
	path            string
	wait            time.Duration // how long a statement waits for the write lock (OpenWaiting)
	pause           func()        // see PauseBeforeTransactions; nil: never pause
	pauseAfterBegin func()        // see PauseAfterBegin; nil: never pause
	countErr        error         // see FailCounts; nil: read every count

	mu     sync.Mutex
	idle   []*conn              // kept connections no transaction is using (conn.go)
	reads  map[string]*sql.Stmt // statements prepared for reads outside a transaction
	closed bool
}

// Open opens the SQLite file at path, creating it if it does not exist,
// and makes one real connection to it under ctx, so that a bad path fails
// here rather than inside the first transaction.
//
// Every connection gets:
//   - journal_mode=WAL, so a reader (the runner's before/after snapshots, a
//     learner's sqlite3 shell) never blocks a writer and never sees another
//     connection's uncommitted work, while writers still take turns;
//   - synchronous=NORMAL, which in WAL mode survives a process crash (the
//     failure this course studies) without an fsync on every commit;
//   - busy_timeout, so BEGIN IMMEDIATE waits its turn, up to five seconds,
//     instead of failing at once when another process holds the write
//     lock;
//   - foreign_keys=ON, so the schemas' references are enforced.
func Open(ctx context.Context, path string) (*DB, error) {
	return OpenWaiting(ctx, path, lockWait)
}

// OpenWaiting is Open with another bound on the wait for the write lock:
// a statement that finds another connection holding it waits up to wait
// (in whole milliseconds; less than one means not at all), then fails
// with SQLITE_BUSY (see IsBusy).
//
// It is a test seam, as the injected clock is. A test that holds the
// write lock on purpose opens the waiting side with a wait of a few
// milliseconds, and sees the busy failure a real contender sees only
// after Open's five seconds: the order of events is the same, only the
// length of the wait differs, and nobody sleeps.
func OpenWaiting(ctx context.Context, path string, wait time.Duration) (*DB, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", wait.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	// The path goes into a file: URI, so a '?', '#' or '%' in it (a
	// TMPDIR can hold any of them) must be escaped.
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &DB{sql: db, path: path, wait: wait, reads: map[string]*sql.Stmt{}}, nil
}

// Close closes every connection to the file, the kept ones included, and
// every statement prepared on them. A transaction still running when Close
// is called closes its connection when it ends.
func (db *DB) Close() error {
	db.mu.Lock()
	idle := db.idle
	db.idle, db.closed = nil, true
	db.mu.Unlock()
	for _, c := range idle {
		c.close()
	}
	return db.sql.Close()
}

// QueryRow runs a read-only query outside any explicit transaction. In WAL
// mode it sees the last committed state and nothing else.
func (db *DB) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := db.readStmt(ctx, query)
	if err != nil {
		// A *sql.Row cannot be handed an error from outside database/sql:
		// run the query unprepared, which fails the same way, and Scan
		// reports why.
		return db.sql.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}

// Querier runs a query: a *DB reads the last committed state, a *Tx reads
// its own transaction's view. Readers that serve both take a Querier.
type Querier interface {
	QueryRow(ctx context.Context, query string, args ...any) *sql.Row
}

var (
	_ Querier = (*DB)(nil)
	_ Querier = (*Tx)(nil)
)

// Query runs a read-only query outside any explicit transaction.
func (db *DB) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := db.readStmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}
