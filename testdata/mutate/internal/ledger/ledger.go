// Package ledger is the mutation fixture's mechanism: small functions, each
// holding one kind of thing drill mutate changes.
package ledger

import "errors"

// Limit is a constant declaration: its mutants cannot be switched at run
// time and are built one at a time.
const Limit = 3

// ErrFull is returned by Take at the limit.
var ErrFull = errors.New("ledger: full")

// Ledger counts takes up to Limit.
type Ledger struct {
	taken int
	log   []string
}

// Take counts one more, or returns ErrFull at the limit.
func (l *Ledger) Take() error {
	if l.taken >= Limit {
		return ErrFull
	}
	l.taken++
	l.record("take")
	return nil
}

// record appends to the ledger's log; nothing reads it back but Log.
func (l *Ledger) record(what string) { l.log = append(l.log, what) }

// Log returns what was recorded.
func (l *Ledger) Log() []string { return l.log }

// Open reports whether a lease ending at expires is still open at now.
func Open(expires, now int64) bool { return expires > now }

// May reports whether a worker may write: it holds the lease and it is not
// stopped.
func May(holds, stopped bool) bool { return holds && !stopped }

// Plural names a count for people; no test looks at it.
func Plural(n int) string {
	if n != 1 {
		return "items"
	}
	return "item"
}

// Check returns the error of do, wrapped.
func Check(do func() error) error {
	if err := do(); err != nil {
		return errors.Join(ErrFull, err)
	}
	return nil
}

// width is an unexported constant used where only a constant may stand,
// an array length: it cannot become a variable, so its mutants are built
// alone.
const width = 2

// Second returns the second byte of a width-byte buffer: changing the
// width or the index to one that is out of range does not build.
func Second() byte {
	var b [width]byte
	b[1] = 7
	return b[1]
}

// pageSize is an unexported constant declared alone and used only where a
// variable could stand: a shared build declares it a variable, so its
// mutants are switched at run time like any other.
const pageSize = 10

// Pages returns how many whole pages n items fill.
func Pages(n int) int { return n / pageSize }

// Count returns how many items s names. Beside an error the count is
// meaningless, so its literal there has no integer mutants; the one
// returned beside nil has.
func Count(s string) (int, error) {
	if s == "" {
		return 0, ErrFull
	}
	return 5, nil
}
