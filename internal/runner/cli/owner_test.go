package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// readsOwner is an experiment that reads the owner file of its own
// directory while it runs.
type readsOwner struct{ got *[]byte }

func (readsOwner) Validate() error { return nil }

func (e readsOwner) Run(_ context.Context, env Env) (any, error) {
	*e.got, _ = os.ReadFile(filepath.Join(env.Dir, ownerFile))
	return map[string]string{"command": "owner"}, nil
}

// ownerCommand runs readsOwner, which keeps what it read in got.
func ownerCommand(got *[]byte) []Command {
	return []Command{{Name: "owner", Summary: "reads its owner file", New: func(*flag.FlagSet) Experiment { return readsOwner{got: got} }}}
}

// TestARunFolderNamesItsOwner: while a run runs, its directory names the
// process that owns it, by pid and (on Linux) by the time it started, so
// that a later run can tell the owner died even if its pid was reused; a
// directory kept with --keep names no owner, and no run ever removes it.
func TestARunFolderNamesItsOwner(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var got []byte
	var stdout, stderr bytes.Buffer

	code := Main(t.Context(), ownerCommand(&got), []string{"owner"}, &stdout, &stderr)

	assert.Equal(t, code, 0, "stderr: %s", &stderr)
	var o owner
	assert.NilError(t, json.Unmarshal(got, &o), "the run's owner file %q", got)
	assert.Equal(t, o.Pid, os.Getpid(), "the owner's pid")
	if runtime.GOOS == "linux" {
		start, err := processStart(os.Getpid())
		assert.NilError(t, err)
		assert.Equal(t, o.Start, start, "the owner's start time")
		assert.Check(t, o.Boot != "", "the owner names no boot")
		assert.Check(t, strings.HasPrefix(o.PidNS, "pid:["), "the owner's pid namespace %q", o.PidNS)
	}

	got = []byte("not read")
	stderr.Reset()
	code = Main(t.Context(), ownerCommand(&got), []string{"owner", "--keep"}, &stdout, &stderr)

	assert.Equal(t, code, 0, "stderr: %s", &stderr)
	assert.Check(t, cmp.Len(got, 0), "a kept run's directory names an owner: %q", got)
	left, err := os.ReadDir(tmp)
	assert.NilError(t, err)
	assert.Assert(t, cmp.Len(left, 1), "the kept directory")
	Main(t.Context(), ownerCommand(&got), []string{"owner"}, &stdout, &stderr)
	_, err = os.Stat(filepath.Join(tmp, left[0].Name()))
	assert.NilError(t, err, "the next run removed a directory kept with --keep")
}

// TestTheNextRunSweepsFoldersOfDeadRunners: a run removes the directories
// earlier runs left whose owner is dead, and nothing else: not a live
// runner's, not a kept one (it names no owner), not one whose owner file
// is not this user's own regular file, not anything not named as a run's
// directory.
func TestTheNextRunSweepsFoldersOfDeadRunners(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("telling a dead owner from a live one needs /proc; on %s nothing is swept", runtime.GOOS)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	me := thisProcess()
	dead := owner{Pid: endedPid(t), Start: "1", Boot: me.Boot, PidNS: me.PidNS}
	zombie, zombieStart := zombiePid(t)
	for name, o := range map[string]any{
		"fencelab-naive-dead":       dead,
		"fencelab-torture-zombie":   owner{Pid: zombie, Start: zombieStart, Boot: me.Boot, PidNS: me.PidNS},
		"fencelab-lease-alive":      me,
		"fencelab-actors-garbled":   "not an owner",
		"fencelab-variants-noowner": nil,
		"other-naive-dead":          dead,
	} {
		dir := makeDir(t, tmp, name)
		if o != nil {
			data, _ := json.Marshal(o)
			assert.NilError(t, os.WriteFile(filepath.Join(dir, ownerFile), data, 0o600))
		}
	}
	// An owner file that is a link to a dead owner's.
	assert.NilError(t, os.Symlink(filepath.Join(tmp, "fencelab-naive-dead", ownerFile), filepath.Join(makeDir(t, tmp, "fencelab-claim-link"), ownerFile)))
	// A run's directory that is a link, and a file with a run's name.
	assert.NilError(t, os.Symlink(filepath.Join(tmp, "fencelab-naive-dead"), filepath.Join(tmp, "fencelab-link")))
	assert.NilError(t, os.WriteFile(filepath.Join(tmp, "fencelab-file"), nil, 0o600))
	want := []string{
		"fencelab-actors-garbled", "fencelab-claim-link", "fencelab-file", "fencelab-lease-alive",
		"fencelab-link", "fencelab-variants-noowner", "other-naive-dead",
	}
	// Another user's owner file, where this test may make one.
	foreign := filepath.Join(makeDir(t, tmp, "fencelab-fencing-foreign"), ownerFile)
	data, _ := json.Marshal(dead)
	assert.NilError(t, os.WriteFile(foreign, data, 0o600))
	if err := os.Lchown(foreign, os.Geteuid()+1, -1); err == nil {
		want = append(want, "fencelab-fencing-foreign")
	} else {
		t.Logf("no owner file of another user's: %v", err)
	}
	var got []byte
	var stdout, stderr bytes.Buffer

	code := Main(t.Context(), ownerCommand(&got), []string{"owner"}, &stdout, &stderr)

	assert.Equal(t, code, 0, "stderr: %s", &stderr)
	assert.Equal(t, stderr.String(), "", "a sweep is silent")
	var left []string
	entries, err := os.ReadDir(tmp)
	assert.NilError(t, err)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	slices.Sort(want)
	assert.DeepEqual(t, left, want)
}

// TestAnOwnerIsDeadOnlyWhenThisProcessCanTell: an owner is dead when its
// pid names no process, or a process started at another time, or the
// machine has started again since; it is not when either side lacks a
// pid, a start time or a boot, or the pid is another namespace's.
func TestAnOwnerIsDeadOnlyWhenThisProcessCanTell(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("a start time needs /proc; on %s no owner is ever dead", runtime.GOOS)
	}
	me := thisProcess()
	gone := owner{Pid: endedPid(t), Start: "1", Boot: me.Boot, PidNS: me.PidNS}
	with := func(o owner, change func(*owner)) owner {
		change(&o)
		return o
	}
	for _, c := range []struct {
		name   string
		o, me  owner
		isDead bool
	}{
		{"gone", gone, me, true},
		{"alive", me, me, false},
		{"reused", with(me, func(o *owner) { o.Start += "0" }), me, true},
		{"rebooted", with(me, func(o *owner) { o.Boot = "another boot" }), me, true},
		{"elsewhere", with(gone, func(o *owner) { o.PidNS = "pid:[1]" }), me, false},
		{"nopid", with(gone, func(o *owner) { o.Pid = 0 }), me, false},
		{"nostart", with(gone, func(o *owner) { o.Start = "" }), me, false},
		{"noboot", with(gone, func(o *owner) { o.Boot = "" }), me, false},
		{"unknownstart", gone, with(me, func(o *owner) { o.Start = "" }), false},
		{"unknownboot", gone, with(me, func(o *owner) { o.Boot = "" }), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.o.deadTo(c.me), c.isDead, "%+v dead to %+v", c.o, c.me)
		})
	}
}

// makeDir makes the directory name in tmp, with a ledger in it, and
// returns its path.
func makeDir(t *testing.T, tmp, name string) string {
	t.Helper()
	dir := filepath.Join(tmp, name)
	assert.NilError(t, os.Mkdir(dir, 0o700))
	assert.NilError(t, os.WriteFile(filepath.Join(dir, "ledger.db"), []byte("x"), 0o600))
	return dir
}

// endedPid returns the pid of a process that has ended and been waited
// for.
func endedPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	assert.NilError(t, cmd.Run())
	return cmd.Process.Pid
}

// zombiePid returns the pid of a process that has ended and that nobody
// has waited for yet, and when it started; it is waited for when the test
// ends.
func zombiePid(t *testing.T) (int, string) {
	t.Helper()
	cmd := exec.Command("true")
	assert.NilError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Wait() })
	pid := cmd.Process.Pid
	stat := "/proc/" + strconv.Itoa(pid) + "/stat"
	for deadline := time.Now().Add(10 * time.Second); ; {
		data, err := os.ReadFile(stat)
		assert.NilError(t, err)
		if fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:])); len(fields) >= 20 && fields[0] == "Z" {
			return pid, fields[19]
		}
		assert.Assert(t, time.Now().Before(deadline), "process %d did not end within 10 s", pid)
		time.Sleep(10 * time.Millisecond)
	}
}
