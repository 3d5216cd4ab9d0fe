package torturelab

// This file reads the ledger once every worker has stopped: each
// message's committed row, what SQLite's own check of the file says, and,
// for a message the run left neither DONE nor DEAD, whether a claim can
// still take it.

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// auditor is the owner name of the claims the audit tries after the run.
const auditor = "audit"

const rowsQuery = `SELECT id, body, state, claim_owner, fencing_token, claim_expires_at, retry_count FROM messages`

// readLedger reads the ledger in db, whose run added ids, with leases of
// leaseMs. Rows first, then the integrity check; then, for each message
// neither DONE nor DEAD, it waits (for at most one lease) until every
// such lease granted during the run has passed, and tries one claim.
func readLedger(ctx context.Context, db *sqlitedb.DB, ids []string, leaseMs int64) (audit.Ledger, error) {
	l := audit.Ledger{Messages: ids, Rows: map[string]mailbox.Message{}, AfterRun: map[string]audit.ClaimTry{}}
	if err := readRows(ctx, db, l.Rows); err != nil {
		return l, err
	}
	integrity, err := integrityCheck(ctx, db)
	if err != nil {
		return l, err
	}
	l.Integrity = integrity
	var open []string
	var lastEnd int64
	for _, id := range ids {
		row, ok := l.Rows[id]
		if !ok || row.State == mailbox.Done || row.State == mailbox.Dead {
			continue
		}
		open = append(open, id)
		// A NEW row, or a claim without a lease, reads an expiry of 0.
		lastEnd = max(lastEnd, row.ExpiresAt)
	}
	if len(open) == 0 {
		return l, nil
	}
	// A claim takes a message from the millisecond its lease ends on, and
	// waiting d ms moves the wall clock's millisecond on by d at least. A
	// wait of 0 or less (every lease has ended) is over at once.
	wall := clock.Wall{}
	wait := min(lastEnd-wall.Now(), leaseMs)
	select {
	case <-time.After(time.Duration(wait) * time.Millisecond):
	case <-ctx.Done():
		return l, ctx.Err()
	}
	l.CheckedAt = wall.Now()
	box := mailbox.Open(db, wall, leaseMs)
	for _, id := range open {
		_, err := box.Claim(ctx, id, auditor)
		try := audit.ClaimTry{Claimed: err == nil}
		if reason, ok := mailbox.ReasonOf(err); ok {
			try.Reason = reason
		} else if err != nil {
			if ctx.Err() != nil {
				return l, ctx.Err()
			}
			try.Error = err.Error()
		}
		l.AfterRun[id] = try
	}
	return l, nil
}

// readRows reads every row of the messages table into rows.
func readRows(ctx context.Context, db *sqlitedb.DB, rows map[string]mailbox.Message) error {
	rs, err := db.Query(ctx, rowsQuery)
	if err != nil {
		return fmt.Errorf("read the ledger: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		var (
			m       mailbox.Message
			owner   sql.NullString
			tok     sql.NullInt64
			expires sql.NullInt64
		)
		if err := rs.Scan(&m.ID, &m.Body, &m.State, &owner, &tok, &expires, &m.RetryCount); err != nil {
			return fmt.Errorf("read the ledger: %w", err)
		}
		m.Owner, m.Token = owner.String, tok.Int64
		m.ExpiresAt, m.Expires = expires.Int64, expires.Valid
		rows[m.ID] = m
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("read the ledger: %w", err)
	}
	return nil
}

// integrityCheck runs SQLite's own check of the whole file: "ok", or its
// complaints joined by "; ".
func integrityCheck(ctx context.Context, db *sqlitedb.DB) (string, error) {
	rs, err := db.Query(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return "", fmt.Errorf("integrity_check: %w", err)
	}
	defer rs.Close()
	var lines []string
	for rs.Next() {
		var line string
		if err := rs.Scan(&line); err != nil {
			return "", fmt.Errorf("integrity_check: %w", err)
		}
		lines = append(lines, line)
	}
	if err := rs.Err(); err != nil {
		return "", fmt.Errorf("integrity_check: %w", err)
	}
	return strings.Join(lines, "; "), nil
}
