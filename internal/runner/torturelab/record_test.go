package torturelab

import (
	"os"
	"path/filepath"
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
