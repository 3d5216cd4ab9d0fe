package session

// This file holds the Store's one test seam: a pause just before each
// transaction begins, the moment a real host can be stopped by a garbage
// collection, a slow disk or the scheduler.

// PauseBeforeTransactions makes s call pause each time it is about to
// begin a transaction, after it read its clock and before BEGIN IMMEDIATE
// (see sqlitedb.DB.PauseBeforeTransactions). It pauses every user of the
// connection s was opened on; tests give each host its own.
func (s *Store) PauseBeforeTransactions(pause func()) { s.db.PauseBeforeTransactions(pause) }
