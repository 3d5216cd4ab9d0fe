package history

// This file holds the record a process keeps of its calls, and the merge
// of every process's record into one history.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Recorder writes one process's calls to its file, one JSON line when a
// call begins and one more when its answer comes: a process killed during
// a call leaves the first line alone, which says the call was made and no
// answer came.
type Recorder struct {
	w       io.Writer
	process int
	seq     int
}

// NewRecorder records the calls of process to w. Each line goes to w in
// one write, so a kill cannot leave half a line behind a complete one
// (lines are well under the size a pipe or a file writes at once).
func NewRecorder(w io.Writer, process int) *Recorder {
	return &Recorder{w: w, process: process}
}

// Call records that op begins now, and returns the function that records
// its answer. A call's time is taken before its line is written, and its
// return's after the answer came, so the interval holds the call.
func (r *Recorder) Call(op Op) (answered func(Out) error, err error) {
	r.seq++
	op.Process, op.Seq = r.process, r.seq
	op.Call, op.Return, op.Out = time.Now().UnixNano(), 0, Out{Result: Unknown}
	if err := r.write(op); err != nil {
		return nil, err
	}
	return func(out Out) error {
		op.Return, op.Out = time.Now().UnixNano(), out
		return r.write(op)
	}, nil
}

func (r *Recorder) write(op Op) error {
	line, err := json.Marshal(op)
	if err != nil {
		return err
	}
	_, err = r.w.Write(append(line, '\n'))
	return err
}

// Merge reads every record file matching pattern (a filepath.Glob
// pattern) and returns the history: one Op per call, the answered form
// where the answer was recorded, ordered by call time. A last line cut
// short by a kill is left out: the call's first line still says it was
// made.
func Merge(pattern string) ([]Op, error) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	type id struct{ process, seq int }
	byID := map[id]Op{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for n := 1; sc.Scan(); n++ {
			var op Op
			if err := json.Unmarshal(sc.Bytes(), &op); err != nil {
				continue // a line a kill cut short
			}
			if op.Process == 0 || op.Seq == 0 || op.Kind == "" {
				f.Close()
				return nil, fmt.Errorf("history: %s line %d: not an operation", filepath.Base(name), n)
			}
			k := id{op.Process, op.Seq}
			if prev, seen := byID[k]; !seen || !prev.answered() {
				byID[k] = op
			}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	ops := make([]Op, 0, len(byID))
	for _, op := range byID {
		ops = append(ops, op)
	}
	sort.Slice(ops, func(i, j int) bool {
		if ops[i].Call != ops[j].Call {
			return ops[i].Call < ops[j].Call
		}
		if ops[i].Process != ops[j].Process {
			return ops[i].Process < ops[j].Process
		}
		return ops[i].Seq < ops[j].Seq
	})
	return ops, nil
}

// WriteLines writes ops to w as JSON lines.
func WriteLines(w io.Writer, ops []Op) error {
	enc := json.NewEncoder(w)
	for _, op := range ops {
		if err := enc.Encode(op); err != nil {
			return err
		}
	}
	return nil
}
