package destinationfencing

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/gate"
	"github.com/fencelab/fencelab/internal/gate/gatetest"
)

// TestFenceCheckAtTheExactMark: the destination has committed mark 3. A
// call with fence 2, one below the mark, is fenced and commits nothing; a
// call with fence 3, exactly the mark, is admitted and applies, and the
// mark stays 3. Under both contracts that fence, and on separate
// connections, as separate workers would call.
func TestFenceCheckAtTheExactMark(t *testing.T) {
	t.Parallel()
	for _, contract := range []gate.Contract{gate.Fence, gate.FenceReceipt} {
		for _, tc := range []struct {
			name  string
			fence int64
			want  gate.Result
			why   string
		}{
			{"one-below", 2, gate.Fenced, "a fence below the committed mark is turned away"},
			{"at-the-mark", 3, gate.Applied, "a fence equal to the committed mark is admitted"},
		} {
			t.Run(strings.ReplaceAll(string(contract), "+", "-")+"-"+tc.name, func(t *testing.T) {
				t.Parallel()
				d := gatetest.New(t)
				gatetest.Apply(t, d.Gate(contract), gate.Request{Fence: 3, Operation: "OP-1", Units: 4})
				before := d.State()
				want := before
				if tc.want == gate.Applied {
					want.Units += 2
					if contract == gate.FenceReceipt {
						want.Receipts++
					}
				}

				out := gatetest.Apply(t, d.Gate(contract), gate.Request{Fence: tc.fence, Operation: "OP-2", Units: 2})

				assert.Check(t, cmp.Equal(out.Result, tc.want),
					"fence %d against committed mark 3 under %s: %s", tc.fence, contract, tc.why)
				assert.Check(t, cmp.Equal(d.State(), want),
					"destination after fence %d against committed mark 3 under %s: want the mark still 3, and OP-2's 2 units only if admitted", tc.fence, contract)
			})
		}
	}
}
