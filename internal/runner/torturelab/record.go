package torturelab

// This file holds the records: what each worker process was told, kept
// where a kill -9 cannot take it back. Every worker process appends to a
// file of its own, one line per answer, each line written whole by one
// write(2) as soon as the answer arrives. A process killed after its line
// was written loses nothing: the kernel holds the file's pages, not the
// process. What a kill can take is the last answer, when it lands between
// the commit and the write; the audit is built to live with that (see
// audit.go).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Record is one line of a worker's record file: one call the worker made
// on the mailbox and what it was told, or one pause it took.
type Record struct {
	Op string `json:"op"` // claim, complete, dead-letter, pause; read, poll (when they fail)
	ID string `json:"id,omitempty"`
	// Token is, for a claim, the token the worker was given; for a
	// complete or dead-letter, the token it presented.
	Token  int64  `json:"token,omitempty"`
	Result string `json:"result,omitempty"` // see the result words below
	Reason string `json:"reason,omitempty"` // why a call was refused
	Holder string `json:"holder,omitempty"` // who held the lease that refused a claim
	// Takeover marks a claim that began a new generation over a CLAIMED
	// message whose lease had passed, the worker's own included.
	Takeover  bool   `json:"takeover,omitempty"`
	ExpiresAt int64  `json:"expires_at,omitempty"` // a claim's lease end, in wall-clock milliseconds
	PauseMs   int64  `json:"pause_ms,omitempty"`
	PastLease bool   `json:"past_lease,omitempty"`
	Error     string `json:"error,omitempty"` // a call that failed without an answer
	At        int64  `json:"at"`              // when the answer came back, in wall-clock milliseconds
}

// The result words of a record.
const (
	Claimed      = "claimed"       // a claim that began a new generation: a fresh token
	Renewed      = "renewed"       // a claim inside the owner's own live lease: the same token
	Completed    = "completed"     // a complete that was accepted
	Retried      = "retried"       // a dead-letter that sent the message back to NEW
	DeadLettered = "dead_lettered" // a dead-letter that parked the message in DEAD
	Refused      = "refused"       // any call that was refused; Reason says why
	Failed       = "error"         // a call that failed: its outcome is unknown
)

// Log is one worker process's records, in the order it wrote them.
type Log struct {
	Owner string `json:"owner"`
	Pid   int    `json:"pid"`
	Slot  int    `json:"slot"`
	Start int    `json:"start"` // 1 for the slot's first process, 2 for its first replacement, ...
	// Records, in the order the process made the calls.
	Records []Record `json:"-"`
	// Torn counts lines left out because they were cut short: a kill
	// that came in the middle of a write.
	Torn int `json:"-"`
}

// recorder appends one process's records to its file.
type recorder struct {
	f *os.File
}

// createRecorder creates the record file at path, which must not exist
// yet, and writes its first line: who is writing it.
func createRecorder(path string, head Log) (*recorder, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	r := &recorder{f: f}
	if err := r.writeLine(head); err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// write appends rec as one line, in one write(2).
func (r *recorder) write(rec Record) error { return r.writeLine(rec) }

func (r *recorder) writeLine(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := r.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

func (r *recorder) close() error { return r.f.Close() }

// recordFile is the name of the record file of the start-th process of
// slot.
func recordFile(slot, start int) string { return fmt.Sprintf("%02d-%d.jsonl", slot, start) }

// readLogs reads every record file in dir, in the order of their names
// (slot, then start).
func readLogs(dir string) ([]Log, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	logs := make([]Log, 0, len(paths))
	for _, p := range paths {
		l, err := readLog(p)
		if err != nil {
			return nil, err
		}
		logs = append(logs, l)
	}
	return logs, nil
}

// readLog reads one record file. A last line without its newline was cut
// short by a kill and is left out (counted in Torn); a file without even
// its first line is a process killed before it wrote anything, and
// yields an empty Log.
func readLog(path string) (Log, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Log{}, err
	}
	var l Log
	complete, rest := data, []byte(nil)
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		complete, rest = data[:i+1], data[i+1:]
	}
	if len(rest) > 0 {
		l.Torn++
	}
	sc := bufio.NewScanner(bytes.NewReader(complete))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 0; sc.Scan(); n++ {
		if n == 0 {
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				return Log{}, fmt.Errorf("%s: first line: %w", filepath.Base(path), err)
			}
			continue
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return Log{}, fmt.Errorf("%s: line %d: %w", filepath.Base(path), n+1, err)
		}
		l.Records = append(l.Records, rec)
	}
	if err := sc.Err(); err != nil {
		return Log{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return l, nil
}
