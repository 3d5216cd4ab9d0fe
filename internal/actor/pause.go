package actor

// This file holds the Process's one test seam: a pause just before each
// transaction begins, the moment a real process can be stopped by a garbage
// collection, a slow disk or the scheduler.

// PauseBeforeTransactions makes p call pause each time it is about to
// begin a transaction, after it read its clock and before BEGIN IMMEDIATE
// (see sqlitedb.DB.PauseBeforeTransactions). It pauses every user of the
// connection p was opened on; tests give each process its own.
func (p *Process) PauseBeforeTransactions(pause func()) { p.db.PauseBeforeTransactions(pause) }
