package underfire

// This file holds what the overtaking runs share: a step may be
// overtaken. Its call reads the clock (and whatever else it reads before
// its transaction), then stops just before its transaction begins, and
// the next step runs whole in that moment, on another connection, as a
// worker process that got there first would. Then the overtaken call goes
// on. The models apply the two in the order their transactions commit:
// the overtaker first. A mechanism that decided anything from a read made
// before its transaction answers from a row that has changed since, and
// disagrees with the model.
//
// The seam is sqlitedb.DB.PauseBeforeTransactions: nothing sleeps, and the
// order is the same on every run.

import "github.com/fencelab/fencelab/internal/sqlitedb"

// pausable is one connection pool whose next transaction (or a later
// one) can be held just before it begins, for another step to run in.
type pausable struct {
	db *sqlitedb.DB
	// during runs once, the moment the left-th transaction from now of db
	// is about to begin, then is cleared; nil: run straight through.
	during func()
	left   int
}

// openPausable opens name in the run's directory as a pausable pool.
func (d *ledgerDir) openPausable(name string) *pausable {
	d.tb.Helper()
	p := &pausable{db: d.open(name)}
	p.db.PauseBeforeTransactions(p.pause)
	return p
}

func (p *pausable) pause() {
	if p.during == nil {
		return
	}
	if p.left--; p.left <= 0 {
		f := p.during
		p.during = nil
		f()
	}
}

// hold arms p so that during runs just before its next transaction; the
// function it returns runs during at once if no transaction began since
// (a call that answered without one), so the overtaker runs either way.
func (p *pausable) hold(during func()) (after func()) { return p.holdAt(1, during) }

// holdAt is hold for the k-th transaction from now, counted from 1.
func (p *pausable) holdAt(k int, during func()) (after func()) {
	p.during, p.left = during, k
	return func() {
		p.left = 0
		p.pause()
	}
}

// slot names one connection pool of a run: the process a caller calls
// from, and how deep inside other calls' pauses it runs. A step that runs
// inside another's pause gets a pool of its own, so no pool's pause runs
// a call on that same pool.
type slot struct{ process, depth int }
