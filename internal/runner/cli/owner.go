package cli

// This file holds the owner of a run's directory, and the sweep of the
// directories whose owner is dead. A run removes its own directory before
// it prints, and an interrupt too; kill -9 leaves it (databases, records,
// three etcd members' data: hundreds of megabytes) and no program of its
// own is left to remove it. So each run's directory names its owner, the
// runner process, in a file of its own; and each run, before it makes its
// directory, removes those of runs whose owner has died: its pid is gone,
// or is now another process's (the same pid, started at another time).
//
// Nothing else is ever removed: only a directory under the temporary
// directory, named as the runner names its runs, and holding an owner
// file this user wrote, that names a process this one can see is dead. A
// directory kept by --keep has no owner file: it is the user's.

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// runDirPrefix begins the name of every run's directory:
// fencelab-<command>-<random>.
const runDirPrefix = "fencelab-"

// ownerFile is the file, inside a run's directory, that names its owner.
const ownerFile = ".fencelab-owner"

// owner is the process that made a run's directory, as this system can
// tell one process from another: a pid alone is reused.
type owner struct {
	Pid int `json:"pid"`
	// Start is when the process started, in the system's terms (Linux:
	// clock ticks after boot, the 22nd field of /proc/<pid>/stat); empty
	// where the system does not say, and then nothing is ever swept.
	Start string `json:"start,omitempty"`
	// Boot names the boot of the machine the process ran in (Linux:
	// /proc/sys/kernel/random/boot_id): after a restart, every owner
	// of an earlier boot is dead.
	Boot string `json:"boot,omitempty"`
	// PidNS names the pid namespace the pid belongs to (Linux:
	// /proc/self/ns/pid). A directory shared with another namespace (a
	// container's) names pids this process cannot look up: it is kept.
	PidNS string `json:"pid_ns,omitempty"`
}

// claimRunDir writes the owner file of dir, naming this process. It is
// best effort: a run whose owner file could not be written goes on, and
// its directory is removed at its end all the same; only a kill -9 would
// leave it for a person to remove.
func claimRunDir(dir string) {
	data, _ := json.Marshal(thisProcess()) // numbers and strings: it cannot fail
	_ = os.WriteFile(filepath.Join(dir, ownerFile), data, 0o600)
}

// sweepRunDirs removes, from the temporary directory, the directories of
// runs whose owner is dead. It is best effort and silent: a directory it
// cannot read or remove is left as it is.
func sweepRunDirs() {
	tmp := os.TempDir()
	entries, _ := os.ReadDir(tmp)
	me := thisProcess()
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), runDirPrefix) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		if readOwner(dir).deadTo(me) {
			_ = os.RemoveAll(dir)
		}
	}
}

// readOwner reads the owner file of dir. It returns the zero owner,
// which is never dead, if there is none, or it is not a regular file this
// user wrote: in a directory of another user's, a pipe posing as one
// would hold the runner up for good. What does not parse leaves fields
// empty, and an owner with an empty field is never dead either.
func readOwner(dir string) owner {
	var o owner
	path := filepath.Join(dir, ownerFile)
	if fi, err := os.Lstat(path); err == nil && ownedByThisUser(fi) && fi.Mode().IsRegular() {
		data, _ := os.ReadFile(path)
		_ = json.Unmarshal(data, &o)
	}
	return o
}

// deadTo reports whether the process o names has ended, as the process
// me can tell: false whenever it cannot tell.
func (o owner) deadTo(me owner) bool {
	switch {
	case o.Pid <= 0 || o.Start == "" || me.Start == "" || o.Boot == "" || me.Boot == "":
		return false // no owner, or a system that does not say when a process started
	case o.Boot != me.Boot:
		return true // the machine has started again since
	case o.PidNS != me.PidNS:
		return false // a pid of another namespace, which this one cannot look up
	}
	start, err := processStart(o.Pid)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true
	case err != nil:
		return false
	}
	return start != o.Start // the pid is another process's now
}
