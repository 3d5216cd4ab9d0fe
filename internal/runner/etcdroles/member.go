package etcdroles

// This file holds the member role: one etcd member, started as its
// parent says, until its parent is done with it or kills it.

import (
	"context"
	"strconv"

	"github.com/fencelab/fencelab/internal/runner/etcdmember"
	"github.com/fencelab/fencelab/internal/runner/lockservicelab"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

func runMember(ctx context.Context, args []string, link *worker.Link) error {
	var a lockservicelab.MemberArgs
	if err := lockservicelab.Decode(args, &a); err != nil {
		return err
	}
	// The parent closing its end (done, or gone) stops the member, as
	// does an interrupt, even while it waits to join its cluster.
	stop, cancel := untilLinkEnds(ctx, link)
	defer cancel()
	m, err := startMember(stop, etcdmember.Config(a))
	if err != nil || m == nil {
		return err
	}
	defer closeWithin(m, memberCloseWait)
	if err := link.Send(lockservicelab.MemberReady{Name: a.Name, ID: strconv.FormatUint(m.ID(), 16)}); err != nil {
		return err
	}
	return m.Wait(stop)
}
