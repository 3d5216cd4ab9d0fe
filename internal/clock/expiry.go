package clock

// This file holds the one sum every lease is built from: when does a lease
// taken now end? Logical time is an int64, and now + lease can run past
// the largest one. Wrapped around, a lease taken near the end of time
// would end in the distant past: expired the moment it was granted, and
// open to a takeover while its holder still believes it holds it.

import "math"

// Expiry returns when a lease of length lease taken at now ends: now +
// lease, clamped to math.MaxInt64 when the sum would run past it. A
// clamped lease ends at the largest time the clock can show, so it is
// held at every moment before that one.
func Expiry(now, lease int64) int64 {
	if lease <= 0 {
		return now + lease // it ends no later than it starts: nothing to clamp
	}
	if now > math.MaxInt64-lease {
		return math.MaxInt64
	}
	return now + lease
}
