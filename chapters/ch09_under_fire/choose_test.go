package underfire

// This file holds where a sequence's choices come from: a seeded random
// generator in the normal run, the fuzzer's bytes under -fuzz. The same
// generators read both, so a fuzz input is just another way to pick.

import "math/rand/v2"

// chooser draws the choices that make one sequence of steps.
type chooser interface {
	// intn returns a choice in [0, n).
	intn(n int) int
	// more reports whether to draw another step.
	more() bool
}

// seeded draws from a PCG generator: the same seed gives the same
// sequence on every machine and every run.
type seeded struct {
	r    *rand.Rand
	left int // steps still to draw
}

func newSeeded(seed uint64, steps int) *seeded {
	return &seeded{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), left: steps}
}

func (s *seeded) intn(n int) int { return s.r.IntN(n) }

func (s *seeded) more() bool {
	s.left--
	return s.left >= 0
}

// fuzzBytes draws from a fuzz input, one byte per choice, and stops when
// the bytes run out or after max steps, whichever comes first.
type fuzzBytes struct {
	b    []byte
	left int
}

// maxFuzzSteps bounds one fuzz input's sequence, so that a long input
// costs no more than a short seed run.
const maxFuzzSteps = 80

func newFuzzBytes(b []byte) *fuzzBytes { return &fuzzBytes{b: b, left: maxFuzzSteps} }

func (f *fuzzBytes) intn(n int) int {
	if len(f.b) == 0 {
		return 0
	}
	v := int(f.b[0]) % n
	f.b = f.b[1:]
	return v
}

func (f *fuzzBytes) more() bool {
	f.left--
	return f.left >= 0 && len(f.b) > 0
}

// pick returns one of xs, chosen by ch.
func pick[T any](ch chooser, xs ...T) T { return xs[ch.intn(len(xs))] }

// pickTime chooses the logical time of the next step: mostly the same
// minute or a little later, often exactly at, or one either side of, a
// lease's end (ends lists them), sometimes backwards, sometimes anywhere.
func pickTime(ch chooser, now int64, ends []int64, span int64) int64 {
	switch ch.intn(10) {
	case 0, 1, 2:
		return now
	case 3, 4:
		return now + 1 + int64(ch.intn(3))
	case 5, 6:
		if len(ends) > 0 {
			return pick(ch, ends...)
		}
		return now + span
	case 7:
		if len(ends) > 0 {
			return pick(ch, ends...) - 1 + int64(2*ch.intn(2)) // one before or one after
		}
		return now
	case 8:
		return max(0, now-1-int64(ch.intn(int(span))))
	}
	return int64(ch.intn(int(4*span + 1)))
}
