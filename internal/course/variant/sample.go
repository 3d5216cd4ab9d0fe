package variant

// This file picks the random sample of reused verdicts that check and
// mutate judge again, so that a stored verdict is never trusted blindly.

import "math/rand/v2"

// Sample returns n of items chosen at random (all of them if there are
// fewer), and the seed it chose them with: seed itself, or, if seed is 0,
// a fresh one that --seed can be given to repeat the choice. The same
// items and seed always give the same sample.
func Sample[T any](items []T, n int, seed uint64) ([]T, uint64) {
	if seed == 0 {
		seed = rand.Uint64()>>1 | 1 // it fits --seed, a plain int
	}
	picked := append([]T(nil), items...)
	r := rand.New(rand.NewPCG(seed, seed))
	r.Shuffle(len(picked), func(a, b int) { picked[a], picked[b] = picked[b], picked[a] })
	return picked[:min(n, len(picked))], seed
}
