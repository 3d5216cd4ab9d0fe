package variant

// This file is the one bounded pool every engine runs its variants in, and
// the one default for how many run at once.

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// DefaultJobs is how many runs go at once unless a Runner says otherwise:
// one more than the CPUs. A chapter's tests wait on the disk and on their
// child processes part of the time: with one run per CPU a two-core
// machine stayed 30% idle during drill mutate (442 s), with three 14%
// (387 s).
func DefaultJobs() int { return runtime.NumCPU() + 1 }

// Limit is how many runs Each lets go at once.
func (r *Runner) Limit() int {
	if r.Jobs > 0 {
		return r.Jobs
	}
	return DefaultJobs()
}

// Each calls f(ctx, 0) ... f(ctx, n-1), at most Jobs at a time, and
// returns the first error; after an error or a cancelled ctx it starts no
// further call, and the ctx the running ones see is cancelled.
func (r *Runner) Each(ctx context.Context, n int, f func(ctx context.Context, i int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.Limit())
	for i := range n {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error { return f(gctx, i) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
