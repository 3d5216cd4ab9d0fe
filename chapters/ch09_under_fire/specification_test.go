package underfire

// This file holds a specification's own test: a history drawn by hand,
// checked with porcupine against the fenced store's sequential
// specification (internal/runner/history). A specification that accepts
// a wrong answer is a checker that cannot fail, so it is tested like a
// mechanism: with answers it must refuse.

import (
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner/history"
)

// storeWrite is one fenced write of a drawn history: process p calls at
// from and is answered at to.
func storeWrite(p int, from, to, token int64, out history.Out) history.Op {
	return history.Op{Process: p, Seq: int(from) + 1, Kind: history.Write, Key: "k", Actor: "w", Token: token,
		Call: from, Return: to, Out: out}
}

// TestTheStoreSpecificationRefusesAStaleWrite: worker 1 writes key k with
// token 5 and is answered; only then does worker 2 write k with token 4.
// Whatever order the checker tries, 5 came first, so 4 is below the mark:
// an accepted 4 has no place, and a refusal must name the mark it was
// judged by, 5. Token 5 again is no stale write: the store keeps no
// receipt, and the repeat is accepted as a second effect.
func TestTheStoreSpecificationRefusesAStaleWrite(t *testing.T) {
	t.Parallel()
	check := func(second history.Op) history.Verdict {
		first := storeWrite(1, 0, 10, 5, history.Out{Result: history.OK})
		return history.Check(history.Store(), []history.Op{first, second}, 10*time.Second).Verdict
	}
	assert.Equal(t, check(storeWrite(2, 20, 30, 4, history.Out{Result: history.OK})), history.NotLinearizable,
		"token 4 accepted after token 5 had been answered: the specification must find no order for it")
	assert.Equal(t, check(storeWrite(2, 20, 30, 4, history.Out{Result: history.Refused, Reason: "stale_token", Mark: 5})), history.Linearizable,
		"token 4 refused as stale with mark 5 after token 5 was accepted: the specification must allow it")
	assert.Equal(t, check(storeWrite(2, 20, 30, 4, history.Out{Result: history.Refused, Reason: "stale_token", Mark: 4})), history.NotLinearizable,
		"a refusal that names mark 4 when the mark was 5: the specification must hold a refusal to the mark it was judged by")
	assert.Equal(t, check(storeWrite(2, 20, 30, 5, history.Out{Result: history.OK})), history.Linearizable,
		"token 5 written again after token 5 was accepted: not stale; the specification must accept the repeat")
}
