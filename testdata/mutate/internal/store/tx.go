package store

// This file holds a store with transactions, the way the course's
// mechanism holds one: a read meant for the open transaction can be sent
// to the store outside it.

import "database/sql"

// Tx is an open transaction.
type Tx struct{ conn *sql.Conn }

// QueryRow reads inside the transaction.
func (tx *Tx) QueryRow(query string, args ...any) *sql.Row { return nil }

// Store holds a database.
type Store struct{ db *Pool }

// Pool reads outside any transaction.
type Pool struct{}

// QueryRow reads outside any transaction.
func (p *Pool) QueryRow(query string, args ...any) *sql.Row { return nil }

// Owner reads who owns id, inside tx.
func (s *Store) Owner(tx *Tx, id string) (string, error) {
	var owner string
	err := tx.QueryRow(`SELECT owner FROM items WHERE id = ?`, id).Scan(&owner)
	return owner, err
}
