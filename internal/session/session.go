// Package session gives a long-lived conversation (a session) to one host at
// a time, and numbers every run of it with an incarnation, so that a
// callback from an old run can never finish a newer one.
//
// Three identities are kept apart: the session (sess-1, the conversation),
// the host that runs it now (kiosk-a, a machine with a lease of its own),
// and the incarnation (1, 2, 3: which run of the session this is). Host and
// session names repeat: kiosk-a can lose a session and later host it again.
// The incarnation does not repeat: a same-host renewal inside its lease
// keeps it, and every other winning claim makes it one greater, whether
// another host takes over or the same host returns after its lease lapsed.
//
// The incarnation is the one generation number in fencelab not minted from
// the shared lease_tokens counter, on purpose: it counts the runs of one
// session (1, 2, 3), and it is only ever compared with other incarnations
// of the same session, never with a token of another kind. Its increment
// happens in the same statement as the claim that earns it.
//
// FinishSession is the terminal write. It inserts the completion in one
// BEGIN IMMEDIATE transaction whose statement re-reads the session and host
// rows and requires the presenting host, the exact incarnation, a live
// session lease and a live host lease. The ledger (one SQLite file) is the
// only serialization point; host clocks are inputs, not authorities. This
// is not distributed consensus.
package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// ErrNotFound is returned by Get when no session has the given id.
var ErrNotFound = errors.New("session: no such session")

// ErrNoHost is returned by Claim and RenewHost for an empty host name. The
// ledger stores "nobody holds this session" as an empty host, so a host
// called "" could never be told from nobody.
var ErrNoHost = errors.New("session: a host needs a name")

// Leases are how long the two kinds of lease last, in the clock's units.
type Leases struct {
	Session int64 // a claim on one session
	Host    int64 // a host's own liveness lease (RenewHost)
}

// Store is the sessions of one ledger database, judged by one clock. Each
// host uses its own Store (its own connection); they share the file.
type Store struct {
	db     *sqlitedb.DB
	clock  clock.Clock
	leases Leases
}

// Open returns the sessions stored in db. Call CreateSchema once per
// database before using it.
func Open(db *sqlitedb.DB, clk clock.Clock, leases Leases) *Store {
	return &Store{db: db, clock: clk, leases: leases}
}

// CreateSchema creates the hosts, sessions and session_completions tables.
func CreateSchema(ctx context.Context, db *sqlitedb.DB) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		for _, stmt := range []string{
			`CREATE TABLE IF NOT EXISTS hosts (
				host             TEXT PRIMARY KEY,
				lease_expires_at INTEGER NOT NULL
			)`,
			// host and lease_expires_at are NULL when nobody holds the
			// session; incarnation keeps counting across holders.
			`CREATE TABLE IF NOT EXISTS sessions (
				id               TEXT PRIMARY KEY,
				host             TEXT,
				incarnation      INTEGER NOT NULL,
				lease_expires_at INTEGER
			)`,
			`CREATE TABLE IF NOT EXISTS session_completions (
				id          INTEGER PRIMARY KEY AUTOINCREMENT,
				session_id  TEXT NOT NULL REFERENCES sessions(id),
				host        TEXT NOT NULL,
				incarnation INTEGER NOT NULL,
				result      TEXT NOT NULL,
				finished_at INTEGER NOT NULL
			)`,
		} {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("create session schema: %w", err)
			}
		}
		return nil
	})
}

// Session is one row of the sessions table, as committed.
type Session struct {
	ID             string
	Host           string // "" when nobody holds it
	Incarnation    int64
	LeaseExpiresAt int64 // meaningful only when Host is not ""
}

// Completion is one finished run of a session.
type Completion struct {
	Session     string
	Host        string
	Incarnation int64
	Result      string
	FinishedAt  int64
}

// Get returns the committed state of session id.
func (s *Store) Get(ctx context.Context, id string) (Session, error) {
	cur, ok, err := readSession(ctx, s.db, id)
	if err != nil {
		return Session{}, err
	}
	if !ok {
		return Session{}, fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	return cur, nil
}

// Completions returns every committed completion of session id, oldest
// first.
func (s *Store) Completions(ctx context.Context, id string) ([]Completion, error) {
	rows, err := s.db.Query(ctx, `SELECT session_id, host, incarnation, result, finished_at
		FROM session_completions WHERE session_id = ? ORDER BY id`, id)
	if err != nil {
		return nil, fmt.Errorf("read completions of %s: %w", id, err)
	}
	defer rows.Close()
	var out []Completion
	for rows.Next() {
		var c Completion
		if err := rows.Scan(&c.Session, &c.Host, &c.Incarnation, &c.Result, &c.FinishedAt); err != nil {
			return nil, fmt.Errorf("read completions of %s: %w", id, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read completions of %s: %w", id, err)
	}
	return out, nil
}

// readSession reads one session row through q; ok is false if there is
// none.
func readSession(ctx context.Context, q sqlitedb.Querier, id string) (cur Session, ok bool, err error) {
	var host sql.NullString
	var expires sql.NullInt64
	err = q.QueryRow(ctx, `SELECT id, host, incarnation, lease_expires_at FROM sessions WHERE id = ?`, id).
		Scan(&cur.ID, &host, &cur.Incarnation, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, false, nil
	}
	if err != nil {
		return Session{}, false, fmt.Errorf("read session %s: %w", id, err)
	}
	cur.Host, cur.LeaseExpiresAt = host.String, expires.Int64
	return cur, true, nil
}

// readHostLease reads when host's lease expires; ok is false if the host
// never renewed one.
func readHostLease(ctx context.Context, q sqlitedb.Querier, host string) (expiresAt int64, ok bool, err error) {
	err = q.QueryRow(ctx, `SELECT lease_expires_at FROM hosts WHERE host = ?`, host).Scan(&expiresAt)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("read host %s: %w", host, err)
	}
	return expiresAt, true, nil
}
