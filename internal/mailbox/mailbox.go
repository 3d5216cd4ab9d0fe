// Package mailbox is a durable message table that workers claim, complete
// and dead-letter under fencing tokens.
//
// Every write that decides who owns a message is one BEGIN IMMEDIATE
// transaction whose UPDATE checks, in its own WHERE clause, the state and
// token the decision depends on; RowsAffected says whether it won. The
// caller presents the token its own claim returned. Nothing here reads the
// current token back from the row and trusts it: a token read from the row
// always matches the row, so staleness would be undetectable.
package mailbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token"
)

// State is where a message is in its life.
type State string

// The states a message moves through. DONE and DEAD are terminal.
const (
	New     State = "NEW"
	Claimed State = "CLAIMED"
	Done    State = "DONE"
	Dead    State = "DEAD"
)

// NoLease, passed as the lease length to Open, makes claims that never
// expire: a claimed message stays with its owner until it is completed or
// dead-lettered. Chapter 2's compare-and-set claim uses it.
const NoLease = 0

// NoToken is what a caller presents for a message that was never claimed
// (or whose claim was cleared by a retry): its fencing_token column is NULL.
// Minted tokens start at 1, so NoToken never equals a real one.
const NoToken int64 = 0

// ErrNotFound is returned when no message has the given id.
var ErrNotFound = errors.New("mailbox: no such message")

// Message is one row of the messages table, as committed.
type Message struct {
	ID         string
	Body       string
	State      State
	Owner      string // "" when unclaimed
	Token      int64  // NoToken when unclaimed
	ExpiresAt  int64  // meaningful only when Expires is true
	Expires    bool   // false when unclaimed or claimed with NoLease
	RetryCount int
}

// Mailbox is the messages table of one database, judged by one clock.
type Mailbox struct {
	db    *sqlitedb.DB
	clock clock.Clock
	lease int64
}

// Open returns the mailbox stored in db. Claims last lease units of clk's
// time; NoLease makes them last until completed or dead-lettered.
// Call CreateSchema once per database before using it.
func Open(db *sqlitedb.DB, clk clock.Clock, lease int64) *Mailbox {
	return &Mailbox{db: db, clock: clk, lease: lease}
}

// CreateSchema creates the messages table and the shared token counter.
func CreateSchema(ctx context.Context, db *sqlitedb.DB) error {
	return db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		if err := token.CreateTable(ctx, tx); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS messages (
			id               TEXT PRIMARY KEY,
			body             TEXT NOT NULL,
			state            TEXT NOT NULL DEFAULT 'NEW',
			claim_owner      TEXT,
			fencing_token    INTEGER,
			claim_expires_at INTEGER,
			retry_count      INTEGER NOT NULL DEFAULT 0
		)`)
		if err != nil {
			return fmt.Errorf("create messages: %w", err)
		}
		return nil
	})
}

// Add stores a new message in state NEW.
func (m *Mailbox) Add(ctx context.Context, id, body string) error {
	return m.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO messages(id, body) VALUES (?, ?)`, id, body)
		if err != nil {
			return fmt.Errorf("add %s: %w", id, err)
		}
		return nil
	})
}

// Get returns the committed state of message id.
func (m *Mailbox) Get(ctx context.Context, id string) (Message, error) {
	return scanMessage(m.db.QueryRow(ctx, selectMessage, id), id)
}

const selectMessage = `SELECT id, body, state, claim_owner, fencing_token, claim_expires_at, retry_count
	FROM messages WHERE id = ?`

// scanMessage reads one row of selectMessage.
func scanMessage(row *sql.Row, id string) (Message, error) {
	var (
		msg     Message
		state   string
		owner   sql.NullString
		tok     sql.NullInt64
		expires sql.NullInt64
	)
	err := row.Scan(&msg.ID, &msg.Body, &state, &owner, &tok, &expires, &msg.RetryCount)
	if errors.Is(err, sql.ErrNoRows) {
		return Message{}, fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Message{}, fmt.Errorf("read %s: %w", id, err)
	}
	msg.State = State(state)
	msg.Owner = owner.String
	msg.Token = tok.Int64
	msg.ExpiresAt, msg.Expires = expires.Int64, expires.Valid
	return msg, nil
}

// nullableToken maps NoToken to SQL NULL, so a null-safe comparison
// (fencing_token IS ?) matches exactly the rows that carry no token.
func nullableToken(t int64) any {
	if t == NoToken {
		return nil
	}
	return t
}
