// Package etcdlock takes a lock from an etcd cluster, with etcd's own
// client and its concurrency package, and hands its holder a fencing
// token: the revision at which the cluster created the holder's lock key.
//
// A lock lives as long as its session: a lease with a time to live that
// the client keeps alive in the background. The lease is measured by the
// cluster's leader, not by the holder: a holder that is paused, or cut
// off from the cluster, loses its lock when the leader says so, and learns
// of it late or never. So a lock alone never makes a write safe. What
// does is a token the destination checks (Lock.Token, and package
// fencedstore on the other side), or a write made inside etcd itself that
// is conditional on the lock key still being the holder's (Lock.Put).
//
// Revisions fit as tokens because etcd numbers every change to its whole
// key space with one counter that only grows: a lock key created later has
// a greater create revision, whichever key it is.
package etcdlock

import (
	"context"
	"errors"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Prefix starts the key of every lock this package takes: the lock named
// "job-1" lives under /fencelab/locks/job-1/.
const Prefix = "/fencelab/locks/"

var (
	// ErrHeld is returned by TryAcquire when another session holds the
	// lock.
	ErrHeld = errors.New("etcdlock: the lock is held by another session")
	// ErrSessionEnded is returned when the lock's session has ended, as
	// far as this client knows: its lease expired, was revoked, or could
	// not be kept alive. The cluster may have ended it earlier.
	ErrSessionEnded = errors.New("etcdlock: the lock's session has ended")
	// ErrNotHolder is returned by Put when the cluster refused the write
	// because the lock key is no longer the one this holder created.
	ErrNotHolder = errors.New("etcdlock: the lock key is not this holder's any more")
)

// Lock is a lock held through a session. Its token never changes.
type Lock struct {
	session *concurrency.Session
	mutex   *concurrency.Mutex
	token   int64
}

// NewSession starts a session on cli: it asks the cluster for a lease of
// ttl seconds, within ctx, then keeps it alive in the background until the
// session is closed or the lease is lost. A lock taken with the session
// lasts as long as it does.
func NewSession(ctx context.Context, cli *clientv3.Client, ttl int) (*concurrency.Session, error) {
	// The grant is bounded by ctx; the keep-alives are not (they follow
	// the client), so the session outlives the call that started it.
	lease, err := cli.Grant(ctx, int64(ttl))
	if err != nil {
		return nil, fmt.Errorf("etcdlock: start a session: %w", err)
	}
	s, err := concurrency.NewSession(cli, concurrency.WithLease(lease.ID), concurrency.WithTTL(ttl))
	if err != nil {
		return nil, fmt.Errorf("etcdlock: start a session: %w", err)
	}
	return s, nil
}

// Acquire waits until the lock called name is this session's, or ctx ends.
func Acquire(ctx context.Context, s *concurrency.Session, name string) (*Lock, error) {
	m := concurrency.NewMutex(s, Prefix+name)
	if err := m.Lock(ctx); err != nil {
		return nil, fmt.Errorf("etcdlock: acquire %s: %w", name, err)
	}
	return held(ctx, s, m, name)
}

// TryAcquire takes the lock called name if nobody holds it, and returns
// an error wrapping ErrHeld at once if another session does.
func TryAcquire(ctx context.Context, s *concurrency.Session, name string) (*Lock, error) {
	m := concurrency.NewMutex(s, Prefix+name)
	if err := m.TryLock(ctx); err != nil {
		if errors.Is(err, concurrency.ErrLocked) {
			return nil, fmt.Errorf("etcdlock: acquire %s: %w", name, ErrHeld)
		}
		return nil, fmt.Errorf("etcdlock: acquire %s: %w", name, err)
	}
	return held(ctx, s, m, name)
}

// held returns the Lock for a mutex just acquired, with its token: the
// create revision of the holder's own key, read back from the cluster. A
// key already gone means the session ended before the lock was handed
// over.
func held(ctx context.Context, s *concurrency.Session, m *concurrency.Mutex, name string) (*Lock, error) {
	resp, err := s.Client().Get(ctx, m.Key())
	if err != nil {
		return nil, fmt.Errorf("etcdlock: read the key of %s: %w", name, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, fmt.Errorf("etcdlock: acquire %s: %w", name, ErrSessionEnded)
	}
	return &Lock{session: s, mutex: m, token: resp.Kvs[0].CreateRevision}, nil
}

// Token is the lock's fencing token: the revision at which the cluster
// created this holder's lock key. Every later holder of the lock gets a
// greater one.
func (l *Lock) Token() int64 { return l.token }

// Key is the holder's own lock key.
func (l *Lock) Key() string { return l.mutex.Key() }

// Release gives the lock up by deleting the holder's key. The session
// goes on.
func (l *Lock) Release(ctx context.Context) error {
	if err := l.mutex.Unlock(ctx); err != nil {
		return fmt.Errorf("etcdlock: release: %w", err)
	}
	return nil
}
