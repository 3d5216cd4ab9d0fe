package variant

import (
	"slices"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// TestASampleIsRepeatedByItsSeed: a seed repeats its sample exactly, a
// sample never holds an item twice or one that was not offered, a sample
// larger than the items takes them all, and seed 0 picks a seed that
// repeats the same choice.
func TestASampleIsRepeatedByItsSeed(t *testing.T) {
	items := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	first, seed := Sample(items, 3, 42)
	assert.Equal(t, seed, uint64(42))
	again, _ := Sample(items, 3, 42)
	assert.Check(t, cmp.DeepEqual(first, again), "the same seed chose differently")
	assert.Check(t, cmp.Len(first, 3))
	seen := map[string]bool{}
	for _, s := range first {
		assert.Check(t, slices.Contains(items, s) && !seen[s], "sample %v holds %q twice or unoffered", first, s)
		seen[s] = true
	}
	all, _ := Sample(items, 100, 7)
	assert.Check(t, cmp.Len(all, len(items)), "a sample larger than the items takes them all")
	fresh, chosen := Sample(items, 4, 0)
	assert.Check(t, chosen != 0, "seed 0 must pick a seed")
	repeat, _ := Sample(items, 4, chosen)
	assert.Check(t, cmp.DeepEqual(fresh, repeat), "the seed a run printed does not repeat its sample")
	assert.Check(t, cmp.DeepEqual(items, []string{"a", "b", "c", "d", "e", "f", "g", "h"}), "Sample reordered its input")
}
