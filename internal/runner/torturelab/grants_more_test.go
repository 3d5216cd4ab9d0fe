package torturelab

// This file holds the judgement's finer rules: which records are grants
// and refusals, which grant is the highest, when a run tested the fence,
// and in what order the violations are told.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// TestOnlyALockWonIsAGrantAndOnlyAWriteRefusedAsStaleARefusal: a claim
// that did not win grants nothing, whatever token its record carries; a
// write refused for another reason, and a completion refused as stale,
// are not writes refused as stale.
func TestOnlyALockWonIsAGrantAndOnlyAWriteRefusedAsStaleARefusal(t *testing.T) {
	t.Parallel()
	logs := []audit.Log{
		pausedHolder(began+1600, audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: audit.Refused, Reason: "done", At: began + 1700}),
		{Owner: "worker-b", Records: []audit.Record{
			{Op: "claim", ID: "msg-1", Token: 5, Result: audit.Failed, Error: "context deadline exceeded", At: began + 1200},
			{Op: "complete", ID: "msg-1", Token: 5, Result: audit.Refused, Reason: string(fencedstore.StaleToken), At: began + 1300},
		}},
	}

	j := judgeWrites(logs, []fencedstore.Entry{accepted("worker-a", 2)})

	assert.Check(t, cmp.Len(j.Stale, 0), "a write after a claim that failed: %v", j.Stale)
	assert.Check(t, cmp.Equal(j.Attempts, 0), "stale attempts after a claim that failed")
	assert.Check(t, cmp.Equal(j.Refused, 0), "writes refused as stale: one refused as done, one completion refused as stale")
}

// TestTheHighestGrantCountsWhateverTheOrderOfTheRecords: the records of
// several processes come in any order; a write is judged against the
// highest token granted before it, not the last one read.
func TestTheHighestGrantCountsWhateverTheOrderOfTheRecords(t *testing.T) {
	t.Parallel()
	logs := []audit.Log{
		successor(began + 1200), // token 5
		{Owner: "worker-c", Records: []audit.Record{{Op: "claim", ID: "msg-1", Token: 3, Result: audit.Claimed, At: began + 1300}}},
		{Owner: "worker-d", Records: []audit.Record{
			{Op: "claim", ID: "msg-1", Token: 4, Result: audit.Claimed, At: began + 1400},
			{Op: "write", ID: "msg-1", Token: 4, Result: Sent, At: began + 1600},
		}},
	}

	j := judgeWrites(logs, []fencedstore.Entry{accepted("worker-d", 4)})

	assert.Assert(t, cmp.Len(j.Stale, 1), "worker-d's write with token 4, sent after token 5 was granted")
	assert.Check(t, cmp.Contains(j.Stale[0].Detail, "after worker-b had been granted the lock with token 5"))
	assert.Check(t, cmp.Equal(j.Attempts, 1))
}

// TestAnyOneSignTestsTheFence: a refusal alone, a stale attempt alone,
// or a stale write alone (stale only against a write the store accepted
// before it) each mean the fence was tested; none of them, that it was
// not.
func TestAnyOneSignTestsTheFence(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		j    writeJudgement
		want bool
	}{
		{"one refusal", writeJudgement{Refused: 1}, true},
		{"one stale attempt", writeJudgement{Attempts: 1}, true},
		{"one stale write", writeJudgement{Stale: []audit.Violation{{Kind: audit.StaleWrite, ID: "msg-1"}}}, true},
		{"none", writeJudgement{}, false},
	} {
		assert.Check(t, cmp.Equal(tc.j.FenceTested(), tc.want), tc.name)
	}
}

// TestTheViolationsAreToldFileFirstThenKeyByKey: whatever order the
// findings come in, the file's violation comes first, then each key's
// in the order of the keys, and within a key a stale write before the
// rest; the first violation is named even when it is the only one.
func TestTheViolationsAreToldFileFirstThenKeyByKey(t *testing.T) {
	t.Parallel()
	f := audit.Findings{Violations: []audit.Violation{
		{Kind: audit.DoubleCompletion, ID: "msg-1", Detail: "msg-1 completed twice"},
		{Kind: audit.Unfinished, ID: "msg-1", Detail: "msg-1 never completed"},
		{Kind: audit.DoubleCompletion, ID: "msg-2", Detail: "msg-2 completed twice"},
		{Kind: audit.Integrity, ID: "", Detail: "the file is damaged"},
	}}
	stale := audit.Violation{Kind: audit.StaleWrite, ID: "msg-1", Detail: "msg-1: a stale write"}

	got := withStaleWrites(f, writeJudgement{Stale: []audit.Violation{stale}}, []string{"msg-1", "msg-2"})

	var order []string
	for _, v := range got.Violations {
		order = append(order, v.Detail)
	}
	assert.Check(t, cmp.DeepEqual(order, []string{"the file is damaged", "msg-1 completed twice", "msg-1: a stale write", "msg-1 never completed", "msg-2 completed twice"}))
	assert.Check(t, cmp.Equal(*got.StaleWritesAccepted, 1))

	one := withStaleWrites(audit.Findings{}, writeJudgement{Stale: []audit.Violation{stale}}, []string{"msg-1"})
	assert.Check(t, cmp.Equal(one.FirstViolation, stale.String()), "the first violation of a run with one")
	none := withStaleWrites(audit.Findings{FirstViolation: "stale"}, writeJudgement{}, []string{"msg-1"})
	assert.Check(t, cmp.Equal(none.FirstViolation, ""), "the first violation of a run with none")
}
