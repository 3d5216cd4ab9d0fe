package etcdroles

// This file holds the etcd torture worker (torture --lock etcd): a
// process of its own, with its own etcd client and its own connection to
// the fenced store, that works until its parent is done with it. It looks
// for a message not yet completed, tries its lock, writes its effect
// with the lock's token, completes it, and releases the lock. Sometimes,
// between its session check and its write, it asks its parent to stop it
// (SIGSTOP) for longer than its lease. Every answer goes to its record
// file the moment it arrives, and every write is recorded the moment
// before it is sent. Its store fences the writes or not, as the run's
// --fence says. Every call on the store also goes to its history file,
// the moment before it is made and again when its answer comes, for
// torture --check linearizable.

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/etcdlock"
	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/runner/audit"
	"github.com/fencelab/fencelab/internal/runner/history"
	"github.com/fencelab/fencelab/internal/runner/torturelab"
	"github.com/fencelab/fencelab/internal/runner/worker"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// callWait bounds each call to the cluster: a member may be down, or
// being elected, and the worker should try another message, not hang.
const callWait = 2 * time.Second

// idle is how long a worker that found nothing to do waits before it
// looks again.
const idle = 20 * time.Millisecond

// pollWindow is how many open messages a look returns; the worker picks
// one at random, so workers often pick the same one and the lock chooses.
const pollWindow = 32

// tortureWorker is one etcd torture worker's state.
type tortureWorker struct {
	a       torturelab.EtcdWorkerArgs
	cli     *clientv3.Client
	db      *sqlitedb.DB
	store   *fencedstore.Store
	link    *worker.Link
	rec     *torturelab.Recorder
	hist    *history.Recorder
	pauses  *torturelab.EtcdPauses
	pick    *rand.Rand
	session *concurrency.Session
	calls   context.Context // every etcd call's, which the link's end cancels
}

func runTortureWorker(ctx context.Context, args []string, link *worker.Link) error {
	a, err := torturelab.DecodeEtcdWorkerArgs(args)
	if err != nil {
		return err
	}
	calls, endCalls := untilLinkEnds(ctx, link)
	defer endCalls()
	cli, err := newClient(calls, a.Endpoints)
	if err != nil {
		return err
	}
	defer cli.Close()
	db, err := sqlitedb.Open(ctx, a.Store)
	if err != nil {
		return err
	}
	defer db.Close()
	rec, err := torturelab.NewRecorder(a.Records, audit.Log{Owner: a.Owner, Pid: os.Getpid(), Slot: a.Slot, Start: a.Start})
	if err != nil {
		return err
	}
	defer rec.Close()
	hf, err := os.OpenFile(a.History, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer hf.Close()
	w := &tortureWorker{
		a: a, cli: cli, db: db, store: fencedstore.Open(db, a.Contract()), link: link, rec: rec,
		hist:   history.NewRecorder(hf, a.HistoryProcess()),
		pauses: torturelab.NewEtcdPauses(a.Seed, a.Slot, a.Start, a.TTL),
		pick:   rand.New(rand.NewPCG(uint64(a.Seed), uint64(a.Slot)<<32|uint64(a.Start))),
		calls:  calls,
	}
	defer func() {
		if w.session != nil {
			w.session.Orphan()
		}
	}()
	return w.run(ctx)
}

// run works until the parent closes the link or the run is interrupted.
// Only a record that cannot be written ends it early.
func (w *tortureWorker) run(ctx context.Context) error {
	for {
		select {
		case <-w.link.PeerClosed():
			return nil
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		key, err := w.look(ctx)
		if err != nil {
			if err := w.note(audit.Record{Op: "poll", Result: audit.Failed, Error: err.Error()}); err != nil {
				return err
			}
		}
		if key == "" {
			time.Sleep(idle)
			continue
		}
		if err := w.work(ctx, key); err != nil {
			return err
		}
	}
}

// look returns an open message, picked at random from the first few, or
// "" if none is open.
func (w *tortureWorker) look(ctx context.Context) (string, error) {
	rows, err := w.db.Query(ctx, `SELECT key FROM resources WHERE done_token IS NULL ORDER BY rowid LIMIT ?`, pollWindow)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return "", err
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return "", rows.Err()
	}
	return keys[w.pick.IntN(len(keys))], rows.Err()
}

// work takes message key's lock, if it is free, and does the message:
// write, complete, release. It returns an error only when a record
// cannot be written.
func (w *tortureWorker) work(ctx context.Context, key string) error {
	lock, err := w.lock(w.calls, key)
	if err != nil || lock == nil {
		return err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(w.calls, callWait)
		defer cancel()
		_ = lock.Release(rctx)
	}()
	if done, err := w.read(ctx, key); err != nil || done {
		return err // done by someone else meanwhile: nothing to do
	}
	// Chapter 10's remedy: the new holder claims the store's mark with its
	// token before it works, so that from here on every earlier holder's
	// late write is refused, not only those that come after this one's
	// first write. A refused claim means a newer holder has claimed it.
	merr, err := w.stored(history.ClaimMark, key, lock.Token(), func() error {
		return w.store.ClaimMark(ctx, key, lock.Token(), w.a.Owner)
	})
	if err != nil {
		return err
	}
	if ok, err := w.answer(audit.Record{Op: "claim-mark", ID: key, Token: lock.Token()}, merr); !ok || err != nil {
		return err
	}
	pause := w.pauses.Next()
	err = lock.Fenced(ctx, func(ctx context.Context, token int64) error {
		if pause > 0 {
			if err := w.pauseFor(pause, key, token); err != nil {
				return err
			}
		}
		if err := w.note(audit.Record{Op: "write", ID: key, Token: token, Result: torturelab.Sent}); err != nil {
			return err
		}
		werr, err := w.stored(history.Write, key, token, func() error {
			return w.store.Write(ctx, key, token, w.a.Owner)
		})
		if err != nil {
			return &recordError{err}
		}
		return werr
	})
	var rerr *recordError
	if errors.As(err, &rerr) {
		return rerr.err
	}
	if ok, err := w.answer(audit.Record{Op: "write", ID: key, Token: lock.Token()}, err); !ok || err != nil {
		return err
	}
	cerr, err := w.stored(history.Complete, key, lock.Token(), func() error {
		return w.store.Complete(ctx, key, lock.Token(), w.a.Owner)
	})
	if err != nil {
		return err
	}
	_, err = w.answer(audit.Record{Op: "complete", ID: key, Token: lock.Token()}, cerr)
	return err
}

// lock tries message key's lock with the worker's session (a new one if
// it has none, or its last one ended), and records the answer. It
// returns nil and no error when the lock was not won.
func (w *tortureWorker) lock(ctx context.Context, key string) (*etcdlock.Lock, error) {
	cctx, cancel := context.WithTimeout(ctx, callWait)
	defer cancel()
	if w.session != nil {
		select {
		case <-w.session.Done():
			w.session.Orphan()
			w.session = nil
		default:
		}
	}
	var err error
	if w.session == nil {
		if w.session, err = etcdlock.NewSession(cctx, w.cli, w.a.TTL); err != nil {
			w.session = nil
			return nil, w.note(audit.Record{Op: "session", ID: key, Result: audit.Failed, Error: err.Error()})
		}
	}
	lock, err := etcdlock.TryAcquire(cctx, w.session, key)
	switch {
	case errors.Is(err, etcdlock.ErrHeld):
		return nil, w.note(audit.Record{Op: "claim", ID: key, Result: audit.Refused, Reason: "lock_held"})
	case err != nil:
		return nil, w.note(audit.Record{Op: "claim", ID: key, Result: audit.Failed, Error: err.Error()})
	}
	return lock, w.note(audit.Record{Op: "claim", ID: key, Result: audit.Claimed, Token: lock.Token()})
}

// pauseFor asks the parent to stop this process for ms milliseconds, and
// returns once it has been resumed.
func (w *tortureWorker) pauseFor(ms int64, key string, token int64) error {
	if err := w.note(audit.Record{Op: "pause", ID: key, Token: token, PauseMs: ms, PastLease: true}); err != nil {
		return err
	}
	if err := w.link.Send(torturelab.PauseRequest{PauseMs: ms, Key: key, Token: token}); err != nil {
		return err
	}
	var resumed torturelab.PauseRequest
	return w.link.Recv(&resumed)
}

// answer records the store's (or the session check's) answer to one
// call, and reports whether it was accepted.
func (w *tortureWorker) answer(rec audit.Record, err error) (bool, error) {
	reason, refused := fencedstore.ReasonOf(err)
	switch {
	case err == nil:
		rec.Result = "accepted"
		if rec.Op == "complete" {
			rec.Result = audit.Completed
		}
	case errors.Is(err, etcdlock.ErrSessionEnded):
		rec.Result, rec.Reason = audit.Refused, "session_ended"
	case refused:
		rec.Result, rec.Reason = audit.Refused, string(reason)
	default:
		rec.Result, rec.Error = audit.Failed, err.Error()
	}
	return err == nil, w.note(rec)
}

// note stamps rec with the time and writes it to the record file.
func (w *tortureWorker) note(rec audit.Record) error {
	rec.At = clock.Wall{}.Now()
	return w.rec.Write(rec)
}

// read reads key from the store, records the read in the history, and
// says whether the key is completed (a key it could not read counts as
// completed: the worker looks for another). Its error is one the
// history could not record.
func (w *tortureWorker) read(ctx context.Context, key string) (bool, error) {
	answered, err := w.hist.Call(history.Op{Kind: history.Read, Key: key, Actor: w.a.Owner})
	if err != nil {
		return false, err
	}
	r, gerr := w.store.Get(ctx, key)
	if gerr != nil {
		return true, answered(history.Out{Result: history.Unknown})
	}
	return r.DoneToken != 0, answered(history.Out{Result: history.OK, Mark: r.Mark, Count: r.Writes, Done: r.DoneToken != 0})
}

// stored makes one call on the store (do) and records it in the
// history: the call the moment before, its answer the moment after. It
// returns the call's error, and apart from it an error writing the
// history, which ends the worker.
func (w *tortureWorker) stored(kind history.Kind, key string, token int64, do func() error) (callErr, recErr error) {
	answered, err := w.hist.Call(history.Op{Kind: kind, Key: key, Actor: w.a.Owner, Token: token})
	if err != nil {
		return nil, err
	}
	callErr = do()
	return callErr, answered(storeOut(callErr))
}

// storeOut is the store's answer as the history writes it: accepted,
// refused with its reason and the mark it was judged by, or no answer
// (a call that failed may have taken effect or not).
func storeOut(err error) history.Out {
	var r *fencedstore.Refusal
	switch {
	case err == nil:
		return history.Out{Result: history.OK}
	case errors.As(err, &r):
		return history.Out{Result: history.Refused, Reason: string(r.Reason), Mark: r.Mark}
	}
	return history.Out{Result: history.Unknown}
}

// recordError carries an error writing the history out of lock.Fenced,
// apart from the store's answer.
type recordError struct{ err error }

func (e *recordError) Error() string { return e.err.Error() }
