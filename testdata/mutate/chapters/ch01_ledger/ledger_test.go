// Package ledgerchapter is the mutation fixture's chapter: it states some
// of the ledger's properties and leaves others unstated on purpose.
package ledgerchapter

import (
	"errors"
	"strings"
	"testing"
	"time"

	"example.com/mutatefixture/internal/ledger"
)

func TestTakeStopsAtLimit(t *testing.T) {
	var l ledger.Ledger
	for i := 0; i < ledger.Limit; i++ {
		if err := l.Take(); err != nil {
			t.Fatalf("Take number %d = %v; want nil below the limit", i+1, err)
		}
	}
	if err := l.Take(); !errors.Is(err, ledger.ErrFull) {
		t.Fatalf("Take past the limit of %d = %v; want ErrFull", ledger.Limit, err)
	}
}

func TestLeaseIsClosedAtItsEnd(t *testing.T) {
	if ledger.Open(15, 15) {
		t.Fatal("Open(15, 15) = true; want false: a lease is over at its expiry minute")
	}
	if !ledger.Open(15, 14) {
		t.Fatal("Open(15, 14) = false; want true one minute before expiry")
	}
}

func TestStoppedWorkerMayNotWrite(t *testing.T) {
	if ledger.May(true, true) {
		t.Fatal("May(holds, stopped) = true; want false")
	}
	if !ledger.May(true, false) {
		t.Fatal("May(holds, running) = false; want true")
	}
	if ledger.May(false, false) {
		t.Fatal("May(not holding, running) = true; want false")
	}
}

func TestCheckReportsFailure(t *testing.T) {
	if err := ledger.Check(func() error { return errors.New("boom") }); err == nil {
		t.Fatal("Check(failing) = nil; want the failure")
	}
}

func TestSecondByte(t *testing.T) {
	if got := ledger.Second(); got != 7 {
		t.Fatalf("Second() = %d; want 7", got)
	}
}

func TestSyncReportsTheWriteErrorFirst(t *testing.T) {
	errWrite, errFlush := errors.New("write"), errors.New("flush")
	if err := ledger.Sync(func() error { return errWrite }, func() error { return errFlush }); err != errWrite {
		t.Fatalf("Sync(both fail) = %v; want the write's error", err)
	}
}

func TestWaitIsCappedAtASecond(t *testing.T) {
	if got := ledger.Wait(2 * time.Second); got != time.Second {
		t.Fatalf("Wait(2s) = %v; want 1s", got)
	}
}

func TestJournalWritesTheEntryBeforeItsCommit(t *testing.T) {
	var b strings.Builder
	if err := ledger.Journal(&b, "take"); err != nil {
		t.Fatal(err)
	}
	if b.String() != "take\ncommit\n" {
		t.Fatalf("Journal wrote %q; want the entry, then the commit mark", b.String())
	}
}

func TestStampIsFourBytes(t *testing.T) {
	if got := len(ledger.Stamp()); got != 4 {
		t.Fatalf("len(Stamp()) = %d; want 4", got)
	}
}
