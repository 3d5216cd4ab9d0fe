// Package store holds SQL the way the course's mechanism does: statements
// in string literals passed to Exec. Nothing runs them; the mutation
// engine's tests read the mutants they generate.
package store

// Result is what Exec returns.
type Result interface{ RowsAffected() (int64, error) }

// DB runs statements.
type DB interface {
	Exec(query string, args ...any) (Result, error)
}

// Claim is a compare-and-set with a two-conjunct WHERE clause and a SET
// list of two assignments.
func Claim(db DB, id, owner string, now int64) (bool, error) {
	res, err := db.Exec(`UPDATE items SET owner = ?, expires_at = ?
		WHERE id = ? AND expires_at <= ?`, owner, now+5, id, now)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	return n == 1, nil
}

// Begin starts a write transaction.
func Begin(db DB) error {
	_, err := db.Exec("BEGIN IMMEDIATE")
	return err
}
