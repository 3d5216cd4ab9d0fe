package torturelab

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/fencedstore"
	"github.com/fencelab/fencelab/internal/runner/audit"
)

// pausedHolder is worker-a's record of a lock on msg-1 with token 2, won
// at began+100, and of the write it sent with it at sentAt.
func pausedHolder(sentAt int64, answer audit.Record) audit.Log {
	return audit.Log{Owner: "worker-a", Slot: 0, Start: 1, Records: []audit.Record{
		{Op: "claim", ID: "msg-1", Token: 2, Result: audit.Claimed, At: began + 100},
		{Op: "pause", ID: "msg-1", Token: 2, PauseMs: 1500, PastLease: true, At: began + 100},
		{Op: "write", ID: "msg-1", Token: 2, Result: Sent, At: sentAt},
		answer,
	}}
}

// successor is worker-b's record of a lock on msg-1 with token 5, won at
// grantedAt, and nothing more.
func successor(grantedAt int64) audit.Log {
	return audit.Log{Owner: "worker-b", Slot: 1, Start: 1, Records: []audit.Record{
		{Op: "claim", ID: "msg-1", Token: 5, Result: audit.Claimed, At: grantedAt},
	}}
}

// accepted is the store's log entry of writer's accepted write to msg-1.
func accepted(writer string, token int64) fencedstore.Entry {
	return fencedstore.Entry{Key: "msg-1", Op: "write", Token: token, Writer: writer}
}

// TestAWriteIsStaleAgainstTheGrantsMadeBeforeIt: an accepted write is
// stale when a greater token was granted for its key before it was sent;
// a grant recorded in the same millisecond as the send, or after it, does
// not count (it may have come after the write), but a greater token the
// store had already accepted for the key always does.
func TestAWriteIsStaleAgainstTheGrantsMadeBeforeIt(t *testing.T) {
	t.Parallel()
	writeOK := audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: "accepted", At: began + 1700}
	for _, tc := range []struct {
		name      string
		grantedAt int64 // worker-b's grant, token 5; worker-a sends token 2 at began+1600
		log       []fencedstore.Entry
		stale     int
		mention   string
	}{
		{"grant-a-tick-before-the-send", began + 1599, []fencedstore.Entry{accepted("worker-a", 2)}, 1,
			"msg-1: the store accepted worker-a's write with token 2 after worker-b had been granted the lock with token 5"},
		{"grant-on-the-tick-of-the-send", began + 1600, []fencedstore.Entry{accepted("worker-a", 2)}, 0, ""},
		{"grant-after-the-send", began + 1650, []fencedstore.Entry{accepted("worker-a", 2)}, 0, ""},
		{"successor-accepted-first", began + 1650, []fencedstore.Entry{accepted("worker-b", 5), accepted("worker-a", 2)}, 1,
			"msg-1: the store accepted worker-a's write with token 2 after it had accepted worker-b's write with token 5"},
		{"successor-accepted-after", began + 1599, []fencedstore.Entry{accepted("worker-a", 2), accepted("worker-b", 5)}, 1,
			"after worker-b had been granted the lock with token 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := []audit.Log{pausedHolder(began+1600, writeOK), successor(tc.grantedAt)}

			j := judgeWrites(logs, tc.log)

			assert.Assert(t, cmp.Len(j.Stale, tc.stale), "stale writes: %v", j.Stale)
			if tc.stale > 0 {
				assert.Check(t, cmp.Equal(j.Stale[0].Kind, audit.StaleWrite))
				assert.Check(t, cmp.Contains(j.Stale[0].Detail, tc.mention))
			}
		})
	}
}

// TestAGrantWithTheSameOrALowerTokenMakesNoWriteStale: a write is stale
// only below the highest token granted before it; its own grant, and
// lower ones, leave it in order.
func TestAGrantWithTheSameOrALowerTokenMakesNoWriteStale(t *testing.T) {
	t.Parallel()
	logs := []audit.Log{
		pausedHolder(began+1600, audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: "accepted", At: began + 1700}),
		{Owner: "worker-c", Records: []audit.Record{{Op: "claim", ID: "msg-1", Token: 1, Result: audit.Claimed, At: began + 50}}},
		{Owner: "worker-d", Records: []audit.Record{{Op: "claim", ID: "msg-2", Token: 9, Result: audit.Claimed, At: began + 50}}},
	}

	j := judgeWrites(logs, []fencedstore.Entry{accepted("worker-a", 2)})

	assert.Check(t, cmp.Len(j.Stale, 0), "a grant of another key, or with a lower token, is no successor: %v", j.Stale)
	assert.Check(t, !j.FenceTested(), "a run with no stale attempt and no refusal")
}

// TestTheFenceIsTestedByAStaleAttemptOrARefusal: a run tests the fence
// when a write is sent below a token already granted, whatever the store
// answers, or when the store refuses a write as stale; otherwise the
// audit says the fence was not tested.
func TestTheFenceIsTestedByAStaleAttemptOrARefusal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name              string
		answer            audit.Record
		log               []fencedstore.Entry
		attempts, refused int
	}{
		{"refused-as-stale", audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: audit.Refused, Reason: string(fencedstore.StaleToken)},
			nil, 1, 1},
		{"accepted-stale", audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: "accepted"},
			[]fencedstore.Entry{accepted("worker-a", 2)}, 1, 0},
		{"failed-without-an-answer", audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: audit.Failed, Error: "EOF"},
			nil, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := []audit.Log{pausedHolder(began+1600, tc.answer), successor(began + 1200)}

			j := judgeWrites(logs, tc.log)

			assert.Check(t, cmp.Equal(j.Attempts, tc.attempts), "stale attempts")
			assert.Check(t, cmp.Equal(j.Refused, tc.refused), "writes refused as stale")
			assert.Check(t, j.FenceTested(), "the fence was tested")
		})
	}
	t.Run("untested", func(t *testing.T) {
		d := audit.Destination{Keys: []string{"msg-1"}, Integrity: "ok",
			Resources: map[string]fencedstore.Resource{"msg-1": {Mark: 2, Writes: 1, DoneToken: 2}},
			Log:       []fencedstore.Entry{accepted("worker-a", 2), {Key: "msg-1", Op: "complete", Token: 2, Writer: "worker-a"}}}
		logs := []audit.Log{pausedHolder(began+1600, audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: "accepted"})}

		a := auditEtcd(d, logs)

		assert.Check(t, a.Clean(), "a clean run: %v", a.Violations)
		assert.Check(t, !a.FenceTested)
		assert.Check(t, cmp.Equal(a.FenceNote, fenceUntested))
		assert.Check(t, cmp.Contains(fenceLine(fenceOn, a), fenceUntested), "the picture's line")
	})
}

// TestTheStaleWritesReplaceTheStoreAuditsOwn: a write the store audit
// finds below one it had accepted is counted once, as the judgement
// against the grants tells it, and a write stale only against the grants
// is counted too; the other violations stay, in the audit's order.
func TestTheStaleWritesReplaceTheStoreAuditsOwn(t *testing.T) {
	t.Parallel()
	d := audit.Destination{Keys: []string{"msg-1", "msg-2"}, Integrity: "ok",
		Resources: map[string]fencedstore.Resource{"msg-1": {Mark: 5, Writes: 2, DoneToken: 5}, "msg-2": {Mark: 3, Writes: 1, DoneToken: 0}},
		Log: []fencedstore.Entry{
			{Key: "msg-2", Op: "write", Token: 3, Writer: "worker-c"},
			accepted("worker-b", 5), accepted("worker-a", 2),
			{Key: "msg-1", Op: "complete", Token: 5, Writer: "worker-b"},
		}}
	logs := []audit.Log{
		pausedHolder(began+1600, audit.Record{Op: "write", ID: "msg-1", Token: 2, Result: "accepted"}),
		successor(began + 1200),
		{Owner: "worker-c", Records: []audit.Record{{Op: "claim", ID: "msg-2", Token: 3, Result: audit.Claimed, At: began}}},
	}

	a := auditEtcd(d, logs)

	assert.Assert(t, a.StaleWritesAccepted != nil)
	assert.Check(t, cmp.Equal(*a.StaleWritesAccepted, 1), "stale_writes_accepted: %v", a.Violations)
	assert.Check(t, cmp.Equal(a.Unfinished, 1), "msg-2 never completed")
	assert.Assert(t, cmp.Len(a.Violations, 2))
	assert.Check(t, cmp.Equal(a.Violations[0].Kind, audit.StaleWrite), "msg-1's violation before msg-2's")
	assert.Check(t, cmp.Equal(a.Violations[1].Kind, audit.Unfinished))
	assert.Check(t, cmp.Contains(a.FirstViolation, "worker-b had been granted the lock with token 5"))
	assert.Check(t, a.FenceTested)
}
