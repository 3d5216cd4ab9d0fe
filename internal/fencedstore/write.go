package fencedstore

// This file holds the two calls that change the store, Write and
// Complete. Each is one BEGIN IMMEDIATE transaction whose UPDATE carries
// the token comparison in its WHERE clause, so the check and the change
// cannot be separated; RowsAffected is the verdict, and a refusal is
// explained inside the same transaction.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// The calls, as the log and the refusals name them.
const (
	opWrite    = "write"
	opComplete = "complete"
)

// Write applies one write to key under token, on behalf of writer: under
// Fence it is accepted unless token is below the key's committed mark;
// under None every write is accepted. An accepted write adds one to the
// key's effect count, moves the mark up to token if token is greater,
// and is appended to the log. A refused one returns a *Refusal with
// reason StaleToken and changes nothing.
func (s *Store) Write(ctx context.Context, key string, token int64, writer string) error {
	return s.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		// ?3 is true for the unfenced store, which skips the comparison.
		res, err := tx.Exec(ctx, `UPDATE resources SET mark = MAX(mark, ?2), writes = writes + 1
			WHERE key = ?1 AND (?3 OR NOT (?2 < mark))`, key, token, s.contract == None)
		if err != nil {
			return fmt.Errorf("write %s: %w", key, err)
		}
		return accept(ctx, tx, res, opWrite, key, token, writer)
	})
}

// Complete marks key done under token, on behalf of writer: under Fence it
// is accepted unless token is below the key's committed mark; under None
// whatever the token. Either way a key completes once: a second completion
// is refused with reason Terminal. An accepted completion moves the mark up
// to token if token is greater, and is appended to the log.
func (s *Store) Complete(ctx context.Context, key string, token int64, writer string) error {
	return s.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE resources SET mark = MAX(mark, ?2), done_token = ?2
			WHERE key = ?1 AND done_token IS NULL AND (?3 OR NOT (?2 < mark))`, key, token, s.contract == None)
		if err != nil {
			return fmt.Errorf("complete %s: %w", key, err)
		}
		return accept(ctx, tx, res, opComplete, key, token, writer)
	})
}

// accept reads the verdict of a call's UPDATE from its RowsAffected: one
// row changed, and the call is logged; none, and it is explained.
func accept(ctx context.Context, tx *sqlitedb.Tx, res sql.Result, op, key string, token int64, writer string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s %s: %w", op, key, err)
	}
	if n != 1 {
		return explain(ctx, tx, op, key, token)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO accepted(key, op, token, writer) VALUES (?, ?, ?, ?)`,
		key, op, token, writer); err != nil {
		return fmt.Errorf("log %s %s: %w", op, key, err)
	}
	return nil
}

// explain says why a call changed no row, as the transaction sees the key:
// it does not exist, it is already completed (for a completion), or the
// token is below its mark.
func explain(ctx context.Context, tx *sqlitedb.Tx, op, key string, token int64) error {
	var (
		mark int64
		done sql.NullInt64
	)
	err := tx.QueryRow(ctx, `SELECT mark, done_token FROM resources WHERE key = ?`, key).Scan(&mark, &done)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s %s: %w", op, key, ErrUnknownKey)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", op, key, err)
	}
	reason := StaleToken
	if op == opComplete && done.Valid {
		reason = Terminal
	}
	return &Refusal{Op: op, Key: key, Token: token, Reason: reason, Mark: mark}
}
