//go:build linux

package worker_test

// The runner's promise that nothing outlives it, kept when the runner is
// killed with kill -9 in the middle of each command that starts processes:
// no process of the run is alive 5 s later (its workers, its etcd members,
// its proxy; stopped or not), and the next run of the runner removes the
// run's folder, which no program of the killed run could.
//
// These tests build the runner (tools/fencelab, and for chapter 10's
// commands tools/fencelab/withetcd, which links etcd in) rather than
// importing it: the worker plumbing is what is on trial, and a test of
// this package that imported the runner would make it a judge of every
// experiment's mutants (internal/course/mutate). The etcd runs build the
// companion, which on a cold build cache means compiling etcd (minutes of
// CPU: see package companion), and start a cluster per case, so they run
// only when asked (about 6 s once the build cache is warm):
//
//	go test ./internal/runner/worker -run KilledEtcdRunner -kill-etcd

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

var killEtcd = flag.Bool("kill-etcd", false, "also kill lockservice (every case) and torture --lock etcd mid-run (builds the etcd companion; tens of seconds)")

// outliveLimit is how long a process of a killed run may take to die.
const outliveLimit = 5 * time.Second

// TestNothingOutlivesAKilledRunner: naive --race, claim --race and a
// torture run, each killed with kill -9 while its workers work (for
// torture, once it has killed a worker of its own and started another),
// leave no process alive, and the next run removes their folder.
func TestNothingOutlivesAKilledRunner(t *testing.T) {
	t.Parallel()
	bin := buildRunner(t, "github.com/fencelab/fencelab/tools/fencelab")
	for _, c := range []struct {
		name  string
		args  []string
		ready func(*watchedRun) bool
	}{
		{"naive-race", []string{"naive", "--race", "--processes", "3", "--rounds", "10000"}, childrenInRole("mailbox-worker", 3)},
		{"claim-race", []string{"claim", "--race", "--processes", "3", "--rounds", "10000"}, childrenInRole("mailbox-worker", 3)},
		// Four record files for three processes: one was killed and replaced.
		{"torture", []string{"torture", "--processes", "3", "--messages", "2000", "--kills", "40", "--lease-ms", "400", "--seed", "5"}, recordFiles(4)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			killMidRun(t, bin, c.args, c.ready)
		})
	}
}

// TestNothingOutlivesAKilledEtcdRunner: lockservice, in each of its cases
// (as the runner lists them), and torture --lock etcd, each killed with
// kill -9 at the moment its case is about (a worker stopped, its traffic
// cut, the leader or the majority gone) or while its workers work, leave
// no member, proxy or worker alive, and the next run removes their
// folder, members' data included.
func TestNothingOutlivesAKilledEtcdRunner(t *testing.T) {
	if !*killEtcd {
		t.Skip("builds the etcd companion and starts a cluster per case: run with -kill-etcd")
	}
	t.Parallel()
	bin := buildRunner(t, "github.com/fencelab/fencelab/tools/fencelab/withetcd")
	for _, name := range lockserviceCases(t, bin) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			killMidRun(t, bin, []string{"lockservice", "--case", name}, caseUnderWay(name))
		})
	}
	t.Run("torture-etcd", func(t *testing.T) {
		t.Parallel()
		killMidRun(t, bin, []string{"torture", "--lock", "etcd", "--processes", "3", "--messages", "400", "--kills", "4", "--seed", "7"},
			func(w *watchedRun) bool { return recordFiles(3)(w) && w.kids().inRole("etcd-member") == 3 })
	})
}

// watchedRun is a runner the test started and watches through /proc and
// its run folder.
type watchedRun struct {
	pid int    // the runner's
	tmp string // its TMPDIR, which every process it starts inherits
}

// killMidRun starts bin with args under a TMPDIR of its own, waits until
// ready says the run is where it must be killed, kills the runner with
// kill -9, and checks that no process of the run is alive within
// outliveLimit and that the next run of bin removes the killed run's
// folder.
func killMidRun(t *testing.T, bin string, args []string, ready func(*watchedRun) bool) {
	t.Helper()
	w := &watchedRun{tmp: t.TempDir()}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+w.tmp)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	assert.NilError(t, cmd.Start())
	w.pid = cmd.Process.Pid
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		for _, p := range w.survivors(nil) {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
	})
	reached := waitUntil(time.Minute, func() bool {
		select {
		case <-exited:
			return true
		default:
			return ready(w)
		}
	})
	select {
	case <-exited:
		reached = false
	default:
	}
	if !reached {
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("%v ended, or had not reached the point it was to be killed at within a minute; stderr: %s", args, &stderr)
	}
	dir := w.runDir()
	kids := w.kids()
	t.Logf("killing the runner of %v with children %v", args, kids)

	assert.NilError(t, cmd.Process.Signal(syscall.SIGKILL))
	<-exited

	var left []survivor
	if !waitUntil(outliveLimit, func() bool { left = w.survivors(kids); return len(left) == 0 }) {
		t.Fatalf("kill -9 of the runner of %v, with %d children: %d processes of the run still alive %v later: %v", args, len(kids), len(left), outliveLimit, left)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".fencelab-owner"))
	assert.NilError(t, err, "the killed run's folder %s names no owner", dir)
	var owner struct{ Pid int }
	assert.NilError(t, json.Unmarshal(data, &owner), "the killed run's owner file %q", data)
	assert.Equal(t, owner.Pid, w.pid, "the pid the killed run's folder names as its owner")

	next := exec.Command(bin, "lease")
	next.Env = cmd.Env
	out, err := next.CombinedOutput()
	assert.NilError(t, err, "the next run: %s", out)
	entries, err := os.ReadDir(w.tmp)
	assert.NilError(t, err)
	assert.Check(t, cmp.Len(entries, 0), "the next run left the killed run's folder %s (or its own) behind", dir)
}

// runDir is the run's folder: the one directory the runner made in its
// TMPDIR, or "" before it has made it.
func (w *watchedRun) runDir() string {
	dirs, _ := filepath.Glob(filepath.Join(w.tmp, "fencelab-*"))
	if len(dirs) != 1 {
		return ""
	}
	return dirs[0]
}

// kids are the runner's live children.
func (w *watchedRun) kids() procs {
	var kids procs
	for _, p := range allProcs() {
		if p.ppid == w.pid && p.state != "Z" {
			kids = append(kids, p)
		}
	}
	return kids
}

// survivor is a process of a killed run found alive.
type survivor struct {
	proc
	why string
}

func (s survivor) String() string {
	return fmt.Sprintf("%d (%s, state %s, %s)", s.pid, s.role, s.state, s.why)
}

// survivors are the live processes of the run: every one whose
// environment carries the run's TMPDIR (the runner hands its environment
// to all it starts, and a dead parent's children are not its children
// any more), and every one in the process group of one of kids.
func (w *watchedRun) survivors(kids procs) []survivor {
	var out []survivor
	for _, p := range allProcs() {
		if p.state == "Z" || p.state == "X" {
			continue
		}
		switch {
		case slices.Contains(p.env, "TMPDIR="+w.tmp):
			out = append(out, survivor{p, "its environment is the run's"})
		case slices.ContainsFunc(kids, func(k proc) bool { return k.pid == p.pgid }):
			out = append(out, survivor{p, fmt.Sprintf("in the process group of the runner's child %d", p.pgid)})
		}
	}
	return out
}

// childrenInRole is ready once the runner has n children playing role.
func childrenInRole(role string, n int) func(*watchedRun) bool {
	return func(w *watchedRun) bool { return w.kids().inRole(role) >= n }
}

// recordFiles is ready once a torture run's records hold n files, one per
// worker process it has started.
func recordFiles(n int) func(*watchedRun) bool {
	return func(w *watchedRun) bool {
		dir := w.runDir()
		if dir == "" {
			return false
		}
		files, _ := filepath.Glob(filepath.Join(dir, "records", "*.jsonl"))
		return len(files) >= n
	}
}

// caseUnderWay is ready once lockservice's case name is at the moment it
// is about: for a case this test does not know, once both lock workers
// work beside the three members.
func caseUnderWay(name string) func(*watchedRun) bool {
	return func(w *watchedRun) bool {
		k := w.kids()
		if k.inRole("lock-worker") != 2 {
			return false
		}
		switch name {
		case "pause-past-ttl", "late-write-before-successor":
			return slices.ContainsFunc(k, func(p proc) bool { return p.state == "T" }) // A paused
		case "partition":
			return k.inRole("etcd-proxy") == 1 && k.inRole("etcd-member") == 3
		case "leader-lost":
			return k.inRole("etcd-member") == 2 // the leader killed
		case "quorum-lost":
			return k.inRole("etcd-member") == 1 // the majority killed
		}
		return k.inRole("etcd-member") == 3
	}
}

// lockserviceCases are the cases the runner bin has, as its misuse line
// lists them, without "all".
func lockserviceCases(t *testing.T, bin string) []string {
	t.Helper()
	out, _ := exec.Command(bin, "lockservice", "--case", "?").CombinedOutput()
	m := regexp.MustCompile(`want one of (.*)\n`).FindSubmatch(out)
	assert.Assert(t, m != nil, "lockservice's misuse line names no cases: %q", out)
	names := strings.Split(string(m[1]), ", ")
	return slices.DeleteFunc(names, func(n string) bool { return n == "all" })
}

// buildRunner builds the main package pkg into the test's temporary
// directory, as fencelab, and returns its path.
func buildRunner(t *testing.T, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fencelab")
	out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, pkg).CombinedOutput()
	assert.NilError(t, err, "go build %s: %s", pkg, out)
	return bin
}

// proc is one process as /proc shows it.
type proc struct {
	pid, ppid, pgid int
	state           string
	role            string   // its FENCELAB_ROLE, if any
	env             []string // its environment, if this user may read it
}

func (p proc) String() string { return fmt.Sprintf("%d %s %s", p.pid, p.role, p.state) }

// procs is a list of processes.
type procs []proc

// inRole counts the processes that play role.
func (ps procs) inRole(role string) int {
	n := 0
	for _, p := range ps {
		if p.role == role {
			n++
		}
	}
	return n
}

// allProcs lists every process /proc shows.
func allProcs() procs {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ps procs
	for _, path := range stats {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// After the command name, in parentheses: the state, the
		// parent's pid, the process group.
		fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(fields) < 3 {
			continue
		}
		p := proc{state: fields[0]}
		p.pid, _ = strconv.Atoi(filepath.Base(filepath.Dir(path)))
		p.ppid, _ = strconv.Atoi(fields[1])
		p.pgid, _ = strconv.Atoi(fields[2])
		env, _ := os.ReadFile(filepath.Join(filepath.Dir(path), "environ"))
		p.env = strings.Split(string(env), "\x00")
		for _, v := range p.env {
			if role, ok := strings.CutPrefix(v, "FENCELAB_ROLE="); ok {
				p.role = role
			}
		}
		ps = append(ps, p)
	}
	return ps
}

// waitUntil polls done every 10 ms until it reports true (true), or
// within passes (false).
func waitUntil(within time.Duration, done func() bool) bool {
	deadline := time.Now().Add(within)
	for !done() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
