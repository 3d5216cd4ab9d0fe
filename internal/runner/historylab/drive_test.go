package historylab

// This file holds the tests of the slots' driver: how it numbers and
// names the processes it starts, which calls and pauses each is handed,
// where it kills and replaces them, how it answers a pause, and how it
// fails. Its workers are scripted, on goroutines of the test.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// launches records the plan every process of a test was started with.
type launches struct {
	mu    sync.Mutex
	plans []workerArgs
	procs []*worker.Process // the processes started, in order
}

// starter wraps start so that every plan it starts is recorded first.
func (l *launches) starter(start worker.Starter) worker.Starter {
	return func(ctx context.Context, r worker.Role, args ...string) (*worker.Process, error) {
		var a workerArgs
		if err := json.Unmarshal([]byte(args[0]), &a); err != nil {
			return nil, err
		}
		l.mu.Lock()
		l.plans = append(l.plans, a)
		l.mu.Unlock()
		p, err := start(ctx, r, args...)
		l.mu.Lock()
		l.procs = append(l.procs, p)
		l.mu.Unlock()
		return p, err
	}
}

func (l *launches) processes() []*worker.Process {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.procs)
}

func (l *launches) all() []workerArgs {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.plans)
}

// counting makes its calls [From, To) without a mechanism, telling its
// parent after each how many the slot has made, as runWorker does.
func counting(a workerArgs, _ *os.File, link *worker.Link) error {
	for done := a.From; done < a.To; {
		done++
		if err := link.Send(progress{Done: done, Last: done == a.To}); err != nil {
			return err
		}
	}
	return nil
}

// pausing is counting that also asks for the pauses of its plan, before
// the call they come after, and checks the answer it is let go with.
func pausing(a workerArgs, _ *os.File, link *worker.Link) error {
	pauses := a.Pauses
	for done := a.From; done < a.To; {
		if len(pauses) > 0 && pauses[0].After == done {
			if err := link.Send(progress{Done: done, PauseMs: pauses[0].Ms}); err != nil {
				return err
			}
			var resumed progress
			if err := link.Recv(&resumed); err != nil {
				return err
			}
			if resumed.Done != done {
				return fmt.Errorf("let go after call %d with %+v", done, resumed)
			}
			pauses = pauses[1:]
		}
		done++
		if err := link.Send(progress{Done: done, Last: done == a.To}); err != nil {
			return err
		}
	}
	return nil
}

// within runs f and fails the test if it has not returned in time: a
// driver that waits for a message that never comes is a failure, not a
// hang.
func within(t *testing.T, d time.Duration, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
		return nil
	}
}

// TestAProcessIsHandedThePausesOfTheCallsItMakes: a process making a
// slot's calls [from, to) is handed the planned pauses that come after
// one of those calls' predecessors: the one after call from, yes; the
// one after call to, no, that call is not its.
func TestAProcessIsHandedThePausesOfTheCallsItMakes(t *testing.T) {
	t.Parallel()
	var l launches
	s := &slots{start: l.starter(scripted(counting)), dir: t.TempDir(), next: 2}
	pauses := []pause{{After: 0, Ms: 20}, {After: 1, Ms: 30}, {After: 4, Ms: 20}, {After: 5, Ms: 30}, {After: 7, Ms: 20}}

	p, err := s.launch(t.Context(), 0, 1, 5, pauses)

	assert.NilError(t, err)
	p.Stop()
	plans := l.all()
	assert.Assert(t, cmp.Len(plans, 1))
	want := []pause{{After: 1, Ms: 30}, {After: 4, Ms: 20}}
	assert.Check(t, slices.Equal(plans[0].Pauses, want), "the pauses of a process making calls [1, 5): %v, want %v", plans[0].Pauses, want)
	assert.Check(t, cmp.Equal(plans[0].From, 1))
	assert.Check(t, cmp.Equal(plans[0].To, 5))
}

// TestAKilledWorkerIsReplacedWhereItStopped: the slot's first process
// carries the slot's own number and name; each planned kill comes once
// the slot has made exactly that many calls, and its replacement, with
// the next free number and the same name, makes the calls from there.
// The kills are counted, and the pauses of the calls each process makes
// are its.
func TestAKilledWorkerIsReplacedWhereItStopped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var l launches
	s := &slots{start: l.starter(scripted(counting)), dir: dir, base: workerArgs{Mechanism: "mailbox", Seed: 9}, next: 3}
	pauses := []pause{{After: 1, Ms: 20}, {After: 6, Ms: 30}}

	err := within(t, 20*time.Second, "the driver", func() error { return s.drive(t.Context(), 1, 10, []int{1, 4}, pauses) })

	assert.NilError(t, err)
	type started struct {
		process    int
		actor      string
		from, to   int
		records    string
		firstPause int
	}
	var got []started
	for _, a := range l.all() {
		first := -1
		if len(a.Pauses) > 0 {
			first = a.Pauses[0].After
		}
		got = append(got, started{a.Process, a.Actor, a.From, a.To, a.Records, first})
		assert.Check(t, cmp.Equal(a.Mechanism, "mailbox"), "process %d's mechanism", a.Process)
		assert.Check(t, cmp.Equal(a.Seed, int64(9)), "process %d's seed", a.Process)
	}
	ops := func(n int) string { return filepath.Join(dir, fmt.Sprintf("ops-%d.jsonl", n)) }
	want := []started{
		{2, "worker-2", 0, 10, ops(2), 1},
		{4, "worker-2", 1, 10, ops(4), 1},
		{5, "worker-2", 4, 10, ops(5), 6},
	}
	assert.Check(t, slices.Equal(got, want),
		"the processes of slot 2 (three slots, three processes started before), killed after calls 1 and 4:\n got %+v\nwant %+v", got, want)
	assert.Check(t, cmp.Equal(s.kills, 2), "kills counted")
	assert.Check(t, cmp.Equal(s.pauses, 0), "pauses counted, none asked for")
	procs := l.processes()
	assert.Assert(t, cmp.Len(procs, 3))
	for i, p := range procs[:2] {
		select {
		case <-p.Done():
		case <-time.After(5 * time.Second):
			t.Fatalf("process %d was replaced, so it must have been killed, yet it still runs beside its replacement", want[i].process)
		}
		assert.Check(t, !p.Exit().Normal, "process %d was replaced, so it must have been killed, not left to go on beside its replacement: it ended %+v", want[i].process, p.Exit())
	}
	<-procs[2].Done()
	assert.Check(t, procs[2].Exit().Normal, "the last process made its calls and exited by itself: %+v", procs[2].Exit())
}

// TestASlotWithoutKillsKeepsItsFirstProcess: no planned kill, one
// process, all the calls.
func TestASlotWithoutKillsKeepsItsFirstProcess(t *testing.T) {
	t.Parallel()
	var l launches
	s := &slots{start: l.starter(scripted(counting)), dir: t.TempDir(), next: 2}

	err := within(t, 20*time.Second, "the driver", func() error { return s.drive(t.Context(), 0, 5, nil, nil) })

	assert.NilError(t, err)
	plans := l.all()
	assert.Assert(t, cmp.Len(plans, 1), "processes started")
	assert.Check(t, cmp.Equal(plans[0].Process, 1))
	assert.Check(t, cmp.Equal(plans[0].Actor, "worker-1"))
	assert.Check(t, cmp.Equal(s.kills, 0))
}

// TestAPauseIsAnsweredAndTheWorkerGoesOn: a worker that asks to be
// stopped, even for a single millisecond, is answered with the calls it
// has made and goes on to its last call. A worker that runs inside this
// process is never stopped (it would stop the process whole), so no
// pause is counted.
func TestAPauseIsAnsweredAndTheWorkerGoesOn(t *testing.T) {
	t.Parallel()
	s := &slots{start: scripted(pausing), dir: t.TempDir(), next: 2}
	pauses := []pause{{After: 0, Ms: 1}, {After: 2, Ms: 1}, {After: 3, Ms: 20}}

	err := within(t, 20*time.Second, "the driver", func() error { return s.drive(t.Context(), 0, 5, nil, pauses) })

	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(s.pauses, 0), "pauses of a worker inside the test process")
}

// TestADriverThatCannotStartAWorkerFails: a slot whose first process,
// or whose replacement, cannot be started fails with the starter's
// error.
func TestADriverThatCannotStartAWorkerFails(t *testing.T) {
	t.Parallel()
	refused := errors.New("no more processes")
	never := func(context.Context, worker.Role, ...string) (*worker.Process, error) { return nil, refused }
	s := &slots{start: never, dir: t.TempDir(), next: 2}
	err := within(t, 20*time.Second, "the driver", func() error { return s.drive(t.Context(), 0, 5, nil, nil) })
	assert.Check(t, cmp.ErrorIs(err, refused), "the first process")

	var l launches
	once := func(ctx context.Context, r worker.Role, args ...string) (*worker.Process, error) {
		if len(l.all()) > 1 {
			return nil, refused
		}
		return scripted(counting)(ctx, r, args...)
	}
	s = &slots{start: l.starter(once), dir: t.TempDir(), next: 2}
	err = within(t, 20*time.Second, "the driver", func() error { return s.drive(t.Context(), 0, 5, []int{2}, nil) })
	assert.Check(t, cmp.ErrorIs(err, refused), "the replacement")
}

// TestAWorkerThatFailsAfterItsLastCallFailsTheSlot: a worker that says
// it made its last call and then ends with an error is not a slot done.
func TestAWorkerThatFailsAfterItsLastCallFailsTheSlot(t *testing.T) {
	t.Parallel()
	fails := func(a workerArgs, records *os.File, link *worker.Link) error {
		if err := counting(a, records, link); err != nil {
			return err
		}
		return errors.New("could not close its records")
	}
	s := &slots{start: scripted(fails), dir: t.TempDir(), next: 2}

	err := within(t, 20*time.Second, "the driver", func() error { return s.drive(t.Context(), 0, 3, nil, nil) })

	assert.Check(t, err != nil, "a worker that failed after its last call must fail its slot")
}

// TestAWorkerTheDriverCannotUnderstandIsStopped: a worker whose message
// is not a progress report fails its slot, naming it, and is stopped,
// not left running.
func TestAWorkerTheDriverCannotUnderstandIsStopped(t *testing.T) {
	t.Parallel()
	stopped := make(chan struct{})
	confused := func(_ workerArgs, _ *os.File, link *worker.Link) error {
		if err := link.Send("hello"); err != nil {
			return err
		}
		<-link.PeerClosed() // until its parent stops it
		close(stopped)
		return nil
	}
	s := &slots{start: scripted(confused), dir: t.TempDir(), next: 2}

	err := within(t, 20*time.Second, "the driver", func() error { return s.drive(t.Context(), 0, 3, nil, nil) })

	assert.Check(t, cmp.ErrorContains(err, "history worker 1"), "the slot's error")
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Error("the worker that said something else than its progress was not stopped")
	}
}
