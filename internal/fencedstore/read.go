package fencedstore

// This file holds what the store tells a reader: one key's committed
// state, and the log of accepted calls.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Resource is one key's committed state.
type Resource struct {
	Key    string `json:"key"`
	Mark   int64  `json:"mark"`   // the highest token an accepted call presented
	Writes int64  `json:"writes"` // how many writes took effect
	// DoneToken is the token that completed the key; 0 while it is not
	// completed.
	DoneToken int64 `json:"done_token,omitempty"`
}

// Get returns key's committed state.
func (s *Store) Get(ctx context.Context, key string) (Resource, error) {
	r := Resource{Key: key}
	var done sql.NullInt64
	err := s.db.QueryRow(ctx, `SELECT mark, writes, done_token FROM resources WHERE key = ?`, key).Scan(&r.Mark, &r.Writes, &done)
	if errors.Is(err, sql.ErrNoRows) {
		return Resource{}, fmt.Errorf("get %s: %w", key, ErrUnknownKey)
	}
	if err != nil {
		return Resource{}, fmt.Errorf("get %s: %w", key, err)
	}
	r.DoneToken = done.Int64
	return r, nil
}

// Entry is one line of the log: an accepted write, completion or claim.
type Entry struct {
	Seq    int64  `json:"seq"`
	Key    string `json:"key"`
	Op     string `json:"op"` // "write", "complete" or "claim"
	Token  int64  `json:"token"`
	Writer string `json:"writer"`
}

// Accepted returns the log of accepted calls, in commit order.
func (s *Store) Accepted(ctx context.Context) ([]Entry, error) {
	rows, err := s.db.Query(ctx, `SELECT seq, key, op, token, writer FROM accepted ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("read the log: %w", err)
	}
	defer rows.Close()
	var log []Entry
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.Seq, &e.Key, &e.Op, &e.Token, &e.Writer); err != nil {
			return nil, fmt.Errorf("read the log: %w", err)
		}
		log = append(log, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the log: %w", err)
	}
	return log, nil
}
