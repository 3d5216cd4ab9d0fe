package nestedclaims

// This file holds identities drawn by many goroutines at once, as the
// processes of one test, or the workers of one program, start together.
// Under the race detector (make race runs this chapter with -race) a
// shared buffer fails the test; without it, the test still shows that no
// identity repeats.

import (
	"sync"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/identity"
)

// TestIdentitiesDrawnAtOnceNeverRepeat: eight goroutines each draw 200
// identities at the same time. All 1,600 are random version 4 UUIDs in
// their canonical form, and no two are the same: two processes started at
// once must never be told apart by luck.
func TestIdentitiesDrawnAtOnceNeverRepeat(t *testing.T) {
	t.Parallel()
	const goroutines, each = 8, 200
	drawn := make([][]string, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for range each {
				drawn[g] = append(drawn[g], identity.New())
			}
		})
	}
	wg.Wait()

	seen := map[string]bool{}
	for _, ids := range drawn {
		for _, id := range ids {
			assert.Check(t, uuid4.MatchString(id), "identity %q drawn alongside others is not a random (version 4) UUID", id)
			assert.Check(t, !seen[id], "identity %q was drawn twice by goroutines drawing at once", id)
			seen[id] = true
		}
	}
	assert.Equal(t, len(seen), goroutines*each, "distinct identities drawn by %d goroutines at once", goroutines)
}
