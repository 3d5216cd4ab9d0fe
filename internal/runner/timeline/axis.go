package timeline

// This file maps moments to x positions. The axis is linear in At, with
// two exceptions, both so that marks do not fall on each other:
//
//   - an instant at which several things happen (Steps 1, 2, ... beside
//     Step 0) gets a slot of fixed width per extra step, so that they
//     read left to right in order;
//   - two marked instants closer than minGap pixels are pushed apart, the
//     stretch between them widened evenly (unless Axis.Exact).
//
// The ticks stay at the Step 0 position of their instant, so every tick
// still says where the clock was.

import (
	"fmt"
	"slices"
)

// maxSlot is the widest slot an extra step gets, in pixels; a panel with
// many steps gets narrower ones, so that they take at most slotShare
// tenths of the plot. minGap is the least room between two marked
// instants, at most padShare tenths of the plot in all.
const (
	maxSlot   = 96
	slotShare = 6
	minGap    = 26
	padShare  = 2
)

// scale is one panel's axis laid out on [left, left+width].
type scale struct {
	left, width int
	from, to    int64   // the range of At; to > from
	slot        int     // pixels per extra step
	times       []int64 // the instants with extra steps, in order
	extra       []int   // extra[i]: the largest Step at times[i]
	marked      []int64 // the marked instants, in order
	pad         []int   // pad[i]: pixels added between marked[i-1] and marked[i]
	avail       int     // pixels for the linear part
}

// newScale lays out an axis of width pixels from left over [from, to],
// widened to take every moment in all. The instants of marked are kept
// minGap apart unless exact.
func newScale(left, width int, from, to int64, all, marked []Moment, exact bool) *scale {
	s := &scale{left: left, width: width, from: from, to: to}
	steps := map[int64]int{}
	for _, m := range all {
		s.from, s.to = min(s.from, m.At), max(s.to, m.At)
		steps[m.At] = max(steps[m.At], m.Step)
	}
	if s.to <= s.from {
		s.to = s.from + 1
	}
	total := 0
	for t, n := range steps {
		if n > 0 {
			s.times = append(s.times, t)
			total += n
		}
	}
	slices.Sort(s.times)
	for _, t := range s.times {
		s.extra = append(s.extra, steps[t])
	}
	s.slot = maxSlot
	if total > 0 {
		s.slot = min(maxSlot, width*slotShare/10/total)
	}
	s.avail = width - s.slot*total
	if !exact {
		for _, m := range marked {
			s.marked = append(s.marked, m.At)
		}
		slices.Sort(s.marked)
		s.marked = slices.Compact(s.marked)
		s.spread()
	}
	return s
}

// spread sets the pads that keep marked instants minGap apart. Each pad
// shrinks the linear part and so the gaps, so it is worked out again a
// few times; the pads together take at most padShare tenths of the plot.
func (s *scale) spread() {
	linear := s.avail
	s.pad = make([]int, len(s.marked))
	for range 4 {
		sum := 0
		for i := 1; i < len(s.marked); i++ {
			gap := int((s.marked[i] - s.marked[i-1]) * int64(s.avail) / (s.to - s.from))
			s.pad[i] = max(0, minGap-gap)
			sum += s.pad[i]
		}
		if limit := s.width * padShare / 10; sum > limit {
			for i := range s.pad {
				s.pad[i] = s.pad[i] * limit / sum
			}
			sum = 0
			for _, p := range s.pad {
				sum += p
			}
		}
		s.avail = linear - sum
	}
}

// x is the position of m.
func (s *scale) x(m Moment) int {
	steps := 0 // extra steps of the instants before m.At
	for i, t := range s.times {
		if t < m.At {
			steps += s.extra[i]
		}
	}
	pads := 0 // the pads before m.At, the one it is in shared evenly
	for i := 1; i < len(s.marked); i++ {
		switch lo, hi := s.marked[i-1], s.marked[i]; {
		case hi <= m.At:
			pads += s.pad[i]
		case lo < m.At:
			pads += int(int64(s.pad[i]) * (m.At - lo) / (hi - lo))
		}
	}
	return s.left + int((m.At-s.from)*int64(s.avail)/(s.to-s.from)) + pads + (steps+m.Step)*s.slot
}

// end is the right end of the axis.
func (s *scale) end() int { return s.left + s.width }

// stretches returns, for every instant with extra steps, the x range its
// steps take: where the axis is drawn as "the same instant, in order".
func (s *scale) stretches() [][2]int {
	var out [][2]int
	for i, t := range s.times {
		x0 := s.x(At(t))
		out = append(out, [2]int{x0, x0 + s.extra[i]*s.slot})
	}
	return out
}

// ticks returns the instants the axis labels, in order. On an axis that
// pushes marks apart, a round tick may stand anywhere in a widened
// stretch, where a reader would misread the minute of a mark by
// counting from it: there every marked instant gets a tick of its own
// first, and the round ticks (see roundTicks) fill the room their labels
// leave. No two labels touch.
func (s *scale) ticks() []int64 {
	var out []int64
	var taken []extent
	for _, t := range append(slices.Clone(s.marked), s.roundTicks()...) {
		e := s.tickExtent(t)
		if slices.ContainsFunc(taken, func(o extent) bool { return e.x0 < o.x1+tickLabelGap && o.x0 < e.x1+tickLabelGap }) {
			continue
		}
		taken = append(taken, e)
		out = append(out, t)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// tickLabelGap is the least room between two tick labels.
const tickLabelGap = 6

// tickExtent is the room the label of tick t takes, centred on it.
func (s *scale) tickExtent(t int64) extent {
	x, w := s.x(At(t)), textWidth(fmt.Sprint(t), smallSize)
	return extent{x - w/2, x - w/2 + w, x}
}

// roundTicks are multiples of a round step (1, 2 or 5 times a power of
// ten) over the axis.
func (s *scale) roundTicks() []int64 {
	step := tickStep(s.to-s.from, int64(s.avail))
	first := s.from / step * step
	if first < s.from {
		first += step
	}
	var out []int64
	for t := first; t <= s.to; t += step {
		out = append(out, t)
	}
	return out
}

// tickStep is the smallest of 1, 2, 5, 10, 20, 50, ... that cuts span
// into at most maxTicks pieces at least minTickGap of avail pixels wide.
func tickStep(span, avail int64) int64 {
	const (
		minTickGap = 28
		maxTicks   = 14
	)
	for p := int64(1); ; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			n := span / (m * p)
			if n == 0 || (n <= maxTicks && avail/n >= minTickGap) {
				return m * p
			}
		}
	}
}
