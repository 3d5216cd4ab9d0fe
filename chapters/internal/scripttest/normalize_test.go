package scripttest

import (
	"testing"

	"gotest.tools/v3/assert"
)

func TestNormalizeReplacesPerRunValues(t *testing.T) {
	t.Parallel()
	const work = "/tmp/testscript123/text/work"
	for _, tc := range []struct {
		name, in, want string
	}{{
		name: "kept-directory",
		in:   "fencelab fencing: kept /tmp/testscript123/text/work/.tmp/fencelab-fencing-2794310553\n",
		want: "fencelab fencing: kept $WORK/.tmp/fencelab-fencing-*\n",
	}, {
		name: "path-inside-a-kept-directory",
		in:   "/tmp/testscript123/text/work/.tmp/fencelab-fencing-42/fence-new-first/queue.db",
		want: "$WORK/.tmp/fencelab-fencing-*/fence-new-first/queue.db",
	}, {
		// Both header cells end on the same column before and after.
		name: "table-header",
		in: "      tick  A (pid 4194304)            B (pid 77)                 queue JOB-1\n" +
			"   0        claim: fence 1, expires 5  claim: fence 2, expires 10  A fence 1 running\n",
		want: "      tick  A (pid PID)                B (pid PID)                queue JOB-1\n" +
			"   0        claim: fence 1, expires 5  claim: fence 2, expires 10  A fence 1 running\n",
	}, {
		name: "json",
		in:   `{"coordinator_pid": 100, "old_worker_pid": 101, "workers": [{"pid": 7, "saw": "NEW"}], "units": 4}`,
		want: `{"coordinator_pid": "PID", "old_worker_pid": "PID", "workers": [{"pid": "PID", "saw": "NEW"}], "units": 4}`,
	}, {
		name: "nothing-per-run",
		in:   "call fence 2, OP-1 +4: applied  B fence 2 running  2/4/0\n",
		want: "call fence 2, OP-1 +4: applied  B fence 2 running  2/4/0\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, normalize(tc.in, work), tc.want)
		})
	}
}
