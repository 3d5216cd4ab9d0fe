package sqlitedb

// This file recognises SQLITE_BUSY, the one database error a contending
// worker can expect and may retry.

import (
	"errors"

	"modernc.org/sqlite"
)

// sqliteBusy is SQLite's primary result code for "another connection holds
// the lock". Extended codes (SQLITE_BUSY_SNAPSHOT and friends) share its low
// byte.
const sqliteBusy = 5

// IsBusy reports whether err, or any error it wraps, is SQLITE_BUSY: the
// write lock stayed taken for longer than the DB's wait for it (five
// seconds, or what OpenWaiting was given). Nothing was written; the
// caller may try again later.
func IsBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqliteBusy
}
