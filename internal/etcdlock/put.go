package etcdlock

// This file holds the write made inside etcd itself: a transaction that
// puts a value only if the holder's lock key still exists with the
// revision it was created at. The cluster decides the comparison and the
// put together, so no pause between them is possible.

import (
	"context"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Put sets key to value in the cluster, in one transaction that first
// compares the holder's lock key's create revision with the token. If the
// key is gone (the session ended and the cluster deleted it) or was
// created again by someone else, nothing is written and Put returns an
// error wrapping ErrNotHolder.
func (l *Lock) Put(ctx context.Context, key, value string) error {
	resp, err := l.session.Client().Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(l.Key()), "=", l.token)).
		Then(clientv3.OpPut(key, value)).
		Commit()
	if err != nil {
		return fmt.Errorf("etcdlock: put %s: %w", key, err)
	}
	if !resp.Succeeded {
		return fmt.Errorf("etcdlock: put %s with token %d: %w", key, l.token, ErrNotHolder)
	}
	return nil
}
