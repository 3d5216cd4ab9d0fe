package clock_test

import (
	"math"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/clock"
)

// TestExpiryClampsAtTheEndOfTime: a lease that would end past the largest
// time ends at the largest time instead of wrapping into the past. On the
// exact tick where the sum just fits, nothing is clamped; one tick later
// it is.
func TestExpiryClampsAtTheEndOfTime(t *testing.T) {
	for _, tc := range []struct {
		name       string
		now, lease int64
		want       int64
	}{
		{"ordinary", 20, 15, 35},
		{"no-lease", 20, 0, 20},
		{"just-fits", math.MaxInt64 - 15, 15, math.MaxInt64},
		{"one-past", math.MaxInt64 - 14, 15, math.MaxInt64},
		{"at-the-end", math.MaxInt64, 15, math.MaxInt64},
		{"longest-lease", 1, math.MaxInt64, math.MaxInt64},
		{"before-zero", -10, 15, 5},
		{"longest-lease-from-before-zero", -1, math.MaxInt64, math.MaxInt64 - 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := clock.Expiry(tc.now, tc.lease)
			assert.Equal(t, got, tc.want, "Expiry(%d, %d): a lease taken at %d for %d", tc.now, tc.lease, tc.now, tc.lease)
		})
	}
}
