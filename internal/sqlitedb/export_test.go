package sqlitedb

// This file lets the package's own tests see what the API hides: which
// connections a DB keeps, and how often each has prepared a statement.

// Prepared returns, for each connection db keeps idle, how many times a
// statement was prepared on it.
func Prepared(db *DB) []int {
	db.mu.Lock()
	defer db.mu.Unlock()
	out := make([]int, len(db.idle))
	for i, c := range db.idle {
		out[i] = c.prepared
	}
	return out
}

// OpenConnections returns how many connections to the file db holds open,
// kept or pooled.
func OpenConnections(db *DB) int { return db.sql.Stats().OpenConnections }
