//go:build linux

package cli

// This file tells one process from another on Linux, for the owner of a
// run's directory (owner.go): /proc says when a process started, and
// which boot and pid namespace this one runs in.

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// thisProcess is this process as an owner.
func thisProcess() owner {
	o := owner{Pid: os.Getpid()}
	o.Start, _ = processStart(o.Pid)
	if id, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err == nil {
		o.Boot = strings.TrimSpace(string(id))
	}
	o.PidNS, _ = os.Readlink("/proc/self/ns/pid")
	return o
}

// processStart returns when process pid started, in clock ticks after
// boot, or an error wrapping fs.ErrNotExist if there is no such process or
// it has ended and waits only to be reaped (a zombie).
func processStart(pid int) (string, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", err
	}
	state, start, err := parseStat(data)
	switch {
	case err != nil:
		return "", fmt.Errorf("process %d: %w", pid, err)
	case state == "Z":
		return "", fmt.Errorf("process %d has ended: %w", pid, fs.ErrNotExist)
	}
	return start, nil
}

// parseStat returns the state (the 3rd field) and the start time (the
// 22nd) of a process from its /proc/<pid>/stat. The 2nd field, the
// command's name, is in parentheses and may hold anything, spaces and
// parentheses included: the fields are counted from the last ')'.
func parseStat(data []byte) (state, start string, err error) {
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(fields) < 20 {
		return "", "", fmt.Errorf("a stat line with %d fields after the name, not 20 or more", len(fields))
	}
	return fields[0], fields[19], nil
}

// ownedByThisUser reports whether fi is a file this process's user owns.
func ownedByThisUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
