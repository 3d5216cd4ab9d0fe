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

	"github.com/fencelab/fencelab/internal/runner/audit"
)

// recorder appends one process's records to its file.
type recorder struct {
	f *os.File
}

// createRecorder creates the record file at path, which must not exist
// yet, and writes its first line: who is writing it.
func createRecorder(path string, head audit.Log) (*recorder, error) {
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
func (r *recorder) write(rec audit.Record) error { return r.writeLine(rec) }

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
func readLogs(dir string) ([]audit.Log, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	logs := make([]audit.Log, 0, len(paths))
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
func readLog(path string) (audit.Log, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return audit.Log{}, err
	}
	var l audit.Log
	// Up to the last newline every line was written whole; after it is a
	// line a kill cut short. A line longer than bufio's 64 KiB default is
	// no record a worker writes, and is an error.
	complete := data[:bytes.LastIndexByte(data, '\n')+1]
	if len(complete) < len(data) {
		l.Torn++
	}
	sc := bufio.NewScanner(bytes.NewReader(complete))
	for n := 0; sc.Scan(); n++ {
		if n == 0 {
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				return audit.Log{}, fmt.Errorf("%s: first line: %w", filepath.Base(path), err)
			}
			continue
		}
		var rec audit.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return audit.Log{}, fmt.Errorf("%s: line %d: %w", filepath.Base(path), n+1, err)
		}
		l.Records = append(l.Records, rec)
	}
	if err := sc.Err(); err != nil {
		return audit.Log{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return l, nil
}
