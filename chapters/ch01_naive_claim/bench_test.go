package naiveclaim

import (
	"fmt"
	"testing"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// BenchmarkCycle measures one insert -> claim -> complete cycle on a real
// SQLite file, twice in the same run: with the chapter's naive unfenced SQL
// (the baseline) and with internal/mailbox (compare-and-set, token minted
// in the claim's transaction, token checked by the completion). Each step
// is its own BEGIN IMMEDIATE transaction in both, on a connection the
// SQLite layer keeps with its statements already prepared, so neither pays
// for parsing SQL. The difference is what fencing adds (the mint, the
// checks in the WHERE clauses) against what the naive cycle spends on its
// extra read outside any transaction. Compare the two ns/op: `make bench`.
// `make bench-peers` adds goqite and a floor to the comparison.
func BenchmarkCycle(b *testing.B) {
	ctx := b.Context()
	b.Run("naive", func(b *testing.B) {
		l := mailboxtest.New(b)
		db := l.Connect()
		box := mailbox.Open(db, l.Clock, mailbox.NoLease)
		for i := 0; b.Loop(); i++ {
			id := fmt.Sprintf("msg-%d", i)
			if err := box.Add(ctx, id, "bench"); err != nil {
				b.Fatal(err)
			}
			saw, err := ReadState(ctx, db, id)
			if err != nil || !DecideToClaim(saw) {
				b.Fatalf("read %s: saw %q, %v", id, saw, err)
			}
			if err := WriteClaim(ctx, db, id, "worker-a"); err != nil {
				b.Fatal(err)
			}
			if err := Complete(ctx, db, id); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fenced", func(b *testing.B) {
		l := mailboxtest.New(b)
		box := mailbox.Open(l.Connect(), l.Clock, mailbox.NoLease)
		for i := 0; b.Loop(); i++ {
			id := fmt.Sprintf("msg-%d", i)
			if err := box.Add(ctx, id, "bench"); err != nil {
				b.Fatal(err)
			}
			c, err := box.Claim(ctx, id, "worker-a")
			if err != nil {
				b.Fatal(err)
			}
			if err := box.Complete(ctx, id, "worker-a", c.Token); err != nil {
				b.Fatal(err)
			}
		}
	})
}
