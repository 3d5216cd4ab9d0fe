package torturelab

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/audit"
)

// writeRecords writes a record file holding text and returns its path.
func writeRecords(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), recordFile(0, 1))
	assert.NilError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// header is a record file's first line.
const header = `{"owner":"worker-a","pid":101,"slot":0,"start":1}` + "\n"

// TestARecordFileReadsAsTheWorkerWroteIt: every complete line is a
// record; a last line without its newline was cut short by a kill and
// only counts as torn; a file a kill left empty is an empty log.
func TestARecordFileReadsAsTheWorkerWroteIt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		text    string
		records int
		torn    int
	}{
		{"whole", header + `{"op":"claim","id":"msg-1","token":1,"result":"claimed","at":5}` + "\n", 1, 0},
		{"last-line-cut", header + `{"op":"claim","id":"msg-1","token":1,"result":"claimed","at":5}` + "\n" + `{"op":"comp`, 1, 1},
		{"last-line-cut-after-one-byte", header + `{"op":"claim","id":"msg-1","token":1,"result":"claimed","at":5}` + "\n" + `{`, 1, 1},
		{"only-the-header", header, 0, 0},
		{"header-cut", `{"owner":"wor`, 0, 1},
		{"empty", "", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l, err := readLog(writeRecords(t, tc.text))
			assert.NilError(t, err)
			assert.Equal(t, len(l.Records), tc.records, "records read")
			assert.Equal(t, l.Torn, tc.torn, "lines cut short")
			if tc.records > 0 {
				assert.Check(t, cmp.Equal(l.Owner, "worker-a"))
				assert.Check(t, cmp.Equal(l.Records[0], audit.Record{Op: "claim", ID: "msg-1", Token: 1, Result: audit.Claimed, At: 5}))
			}
		})
	}
}

// TestAGarbledRecordIsAnErrorNamingItsLine: a complete line that is no
// record was not cut by a kill: the file is not what a worker wrote, and
// the audit cannot judge from it. The error names the file and the line.
func TestAGarbledRecordIsAnErrorNamingItsLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, mention string
	}{
		{"first-line", "not a log\n", "00-1.jsonl: first line"},
		{"third-line", header + `{"op":"claim","at":1}` + "\n" + "not a record\n", "00-1.jsonl: line 3"},
		{"longer-than-any-record", header + `{"op":"claim","error":"` + strings.Repeat("x", 70_000) + `"}` + "\n", "00-1.jsonl: bufio.Scanner: token too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := readLog(writeRecords(t, tc.text))
			assert.ErrorContains(t, err, tc.mention)
		})
	}
}

// TestAWorkerWithoutItsPlanDoesNothing: a torture worker is handed exactly
// one argument, its plan as JSON; without it, or with one that is not a
// plan, it stops at once with an error.
func TestAWorkerWithoutItsPlanDoesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		args    []string
		mention string
	}{
		{"no-plan", nil, "want one argument"},
		{"two-plans", []string{"{}", "{}"}, "want one argument"},
		{"not-a-plan", []string{"ledger.db"}, "read the worker's plan"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.ErrorContains(t, runWorker(t.Context(), tc.args, nil), tc.mention)
		})
	}
}

// TestARecordFileIsCreatedOnceAndWrittenALineAtATime: a worker's record
// file starts with who writes it; each record is one more line; a file
// already there is never taken over (a second process with the same
// file name would mix two workers' records).
func TestARecordFileIsCreatedOnceAndWrittenALineAtATime(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), recordFile(2, 3))
	head := audit.Log{Owner: "worker-c3", Pid: 7, Slot: 2, Start: 3}
	rec, err := createRecorder(path, head)
	assert.NilError(t, err)
	want := audit.Record{Op: "claim", ID: "msg-4", Token: 9, Result: audit.Claimed, At: 11}
	assert.NilError(t, rec.write(want))
	assert.NilError(t, rec.close())

	l, err := readLog(path)
	assert.NilError(t, err)
	assert.Check(t, cmp.DeepEqual(l, audit.Log{Owner: "worker-c3", Pid: 7, Slot: 2, Start: 3, Records: []audit.Record{want}}))

	_, err = createRecorder(path, audit.Log{Owner: "worker-x"})
	assert.Check(t, errors.Is(err, fs.ErrExist), "a second recorder on one file: %v", err)
	again, err := readLog(path)
	assert.NilError(t, err)
	assert.Check(t, cmp.DeepEqual(again, l), "the file after a second recorder was refused")
}

// TestARecordThatCannotBeWrittenIsAnError: a record the worker cannot
// write is an error, never a silent loss, and so is closing the file
// twice.
func TestARecordThatCannotBeWrittenIsAnError(t *testing.T) {
	t.Parallel()
	rec, err := createRecorder(filepath.Join(t.TempDir(), recordFile(0, 1)), audit.Log{Owner: "worker-a"})
	assert.NilError(t, err)
	assert.NilError(t, rec.close())

	assert.ErrorContains(t, rec.write(audit.Record{Op: "claim"}), "record:")
	assert.Check(t, errors.Is(rec.close(), os.ErrClosed), "closing a record file twice")
}

// TestTheLogsAreReadInSlotThenStartOrder: readLogs reads every record
// file of the folder, ordered by slot and then by start, and nothing
// else in it.
func TestTheLogsAreReadInSlotThenStartOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, l := range []audit.Log{{Owner: "worker-b", Slot: 1, Start: 1}, {Owner: "worker-a2", Slot: 0, Start: 2}, {Owner: "worker-a", Slot: 0, Start: 1}} {
		rec, err := createRecorder(filepath.Join(dir, recordFile(l.Slot, l.Start)), l)
		assert.NilError(t, err)
		assert.NilError(t, rec.close())
	}
	assert.NilError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a record\n"), 0o644))

	logs, err := readLogs(dir)

	assert.NilError(t, err)
	var owners []string
	for _, l := range logs {
		owners = append(owners, l.Owner)
	}
	assert.Check(t, cmp.DeepEqual(owners, []string{"worker-a", "worker-a2", "worker-b"}))
}

// TestALogThatCannotBeReadFailsTheAudit: one record file that cannot be
// read, or is not what a worker wrote, fails the reading of them all:
// the audit would judge without it.
func TestALogThatCannotBeReadFailsTheAudit(t *testing.T) {
	t.Parallel()
	for name, make := range map[string]func(path string) error{
		"not-a-file": func(path string) error { return os.Mkdir(path, 0o755) },
		"garbled":    func(path string) error { return os.WriteFile(path, []byte("not a log\n"), 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			good, err := createRecorder(filepath.Join(dir, recordFile(0, 1)), audit.Log{Owner: "worker-a"})
			assert.NilError(t, err)
			assert.NilError(t, good.close())
			assert.NilError(t, make(filepath.Join(dir, recordFile(1, 1))))

			logs, err := readLogs(dir)

			assert.ErrorContains(t, err, recordFile(1, 1))
			assert.Check(t, cmp.Len(logs, 0))
		})
	}
}

// umask reads this process's file mode creation mask.
func umask(t *testing.T) os.FileMode {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status to read the umask from")
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32)
			assert.NilError(t, err)
			return os.FileMode(m)
		}
	}
	t.Skip("no umask in /proc/self/status")
	return 0
}

// TestRecordsAreReadableAndNotExecutable: a record file is made rw-r--r--
// (less what the umask takes), like any data file: anyone who may look at
// the run folder can read what the workers were told, no one can run it.
func TestRecordsAreReadableAndNotExecutable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), recordFile(0, 1))
	rec, err := createRecorder(path, audit.Log{Owner: "worker-a"})
	assert.NilError(t, err)
	assert.NilError(t, rec.close())

	info, err := os.Stat(path)
	assert.NilError(t, err)
	assert.Check(t, cmp.Equal(info.Mode().Perm(), 0o644&^umask(t)), "a record file's mode")
}
