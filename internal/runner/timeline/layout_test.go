package timeline

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// TestAxisKeepsTheOrderOfMoments: a later moment is never drawn left of
// an earlier one, and things at one instant are drawn apart, in their
// order, before the next instant.
func TestAxisKeepsTheOrderOfMoments(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var ms []Moment
		for range 1 + r.IntN(20) {
			ms = append(ms, Moment{At: r.Int64N(60), Step: r.IntN(4)})
		}
		exact := round%2 == 0
		sc := newScale(plotLeft, plotRight-plotLeft, 0, 0, ms, ms, exact)
		slices.SortFunc(ms, func(a, b Moment) int {
			if a.before(b) {
				return -1
			}
			if b.before(a) {
				return 1
			}
			return 0
		})
		for i := 1; i < len(ms); i++ {
			x0, x1 := sc.x(ms[i-1]), sc.x(ms[i])
			switch {
			case ms[i] == ms[i-1]:
				assert.Equal(t, x0, x1, "one moment, two places")
			case ms[i].At == ms[i-1].At:
				assert.Assert(t, x1-x0 >= sc.slot*(ms[i].Step-ms[i-1].Step), "steps %v and %v of one instant are %d px apart; want a slot each (%d)", ms[i-1], ms[i], x1-x0, sc.slot)
			default:
				assert.Assert(t, x1 > x0, "%v is drawn at %d, not right of %v at %d", ms[i], x1, ms[i-1], x0)
			}
		}
		for _, m := range ms {
			assert.Assert(t, sc.x(m) >= plotLeft && sc.x(m) <= plotRight, "%v is drawn at %d, off the plot", m, sc.x(m))
		}
	}
}

// TestCloseMarksArePushedApart: two marked instants one minute apart on
// a long axis are drawn at least minGap apart, unless the axis is exact.
func TestCloseMarksArePushedApart(t *testing.T) {
	ms := []Moment{At(0), At(30), At(31), At(60)}
	sc := newScale(plotLeft, plotRight-plotLeft, 0, 0, ms, ms, false)
	assert.Assert(t, sc.x(At(31))-sc.x(At(30)) >= minGap, "marks at 30 and 31 drawn %d px apart; want at least %d", sc.x(At(31))-sc.x(At(30)), minGap)
	exact := newScale(plotLeft, plotRight-plotLeft, 0, 0, ms, ms, true)
	assert.Equal(t, exact.x(At(30))-exact.x(At(0)), exact.x(At(60))-exact.x(At(30)), "an exact axis must stay linear")
}

// TestLabelsInOneRowNeverOverlap: rows puts no two labels of one row on
// top of each other, whatever order they come in.
func TestLabelsInOneRowNeverOverlap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var es []extent
		for range 1 + r.IntN(30) {
			x := r.IntN(800)
			es = append(es, extent{x0: x, x1: x + 20 + r.IntN(200), key: x})
		}
		row, n := rowsInOrder(es)
		for i := range es {
			assert.Assert(t, row[i] >= 0 && row[i] < n)
			for j := range i {
				if row[i] != row[j] {
					continue
				}
				a, b := es[i], es[j]
				assert.Assert(t, a.x1+labelGap <= b.x0 || b.x1+labelGap <= a.x0,
					"labels %v and %v share row %d and overlap", a, b, row[i])
			}
		}
	}
}

// TestMarksOfALaneGetTheirOwnRows: measured on a real lane, the labels
// of marks crowded into one stretch of time each get room of their own.
func TestMarksOfALaneGetTheirOwnRows(t *testing.T) {
	p := Panel{Title: "crowd", Lanes: []Lane{{ID: "w", Label: "w"}}}
	for i := range 8 {
		p.Events = append(p.Events, Event{Lane: "w", At: At(int64(i)), Outcome: Refused, Label: "claim", Result: "refused: lease_held by worker-b"})
	}
	pp, err := planPanel(p)
	assert.NilError(t, err)
	evs := pp.lanes[0].events
	for i := range evs {
		for j := range i {
			if evs[i].row != evs[j].row {
				continue
			}
			wi := linesWidth(smallSize+1, evs[i].e.Label, evs[i].e.Result)
			wj := linesWidth(smallSize+1, evs[j].e.Label, evs[j].e.Result)
			assert.Assert(t, evs[i].lx >= evs[j].lx+wj || evs[j].lx >= evs[i].lx+wi,
				"the labels of marks %d and %d overlap in row %d", j, i, evs[i].row)
		}
	}
}

// TestTicksAreRoundAndReadable: the axis labels round numbers, at least
// minTickGap apart.
func TestTicksAreRoundAndReadable(t *testing.T) {
	for _, tc := range []struct {
		span, avail, want int64
	}{
		{6, 600, 1},
		{40, 600, 5},
		{40, 300, 5},
		{1800, 770, 200},
		{0, 770, 1},
	} {
		assert.Equal(t, tickStep(tc.span, tc.avail), tc.want, "tickStep(%d, %d)", tc.span, tc.avail)
	}
}

// TestEveryMarkedInstantHasATick: on an axis that pushes marks apart, a
// reader reads a mark's instant off its own tick, not by counting from a
// round one across a widened stretch. Deadletter's takeover at minute
// 215 (two calls at once) and incarnation's callbacks at minutes 22 and
// 31 (next to 30) each get one.
func TestEveryMarkedInstantHasATick(t *testing.T) {
	for _, tc := range []struct {
		name     string
		from, to int64
		marked   []Moment
		want     []int64
		story    string
	}{
		{"deadletter", 197, 218, []Moment{At(197), At(200), At(215), At(215).Then(1)}, []int64{200, 215},
			"the takeover's minute 215 has a tick"},
		{"incarnation", -3, 63, []Moment{At(-3), At(0), At(20), At(22), At(22).Then(1), At(30), At(31), At(50), At(50).Then(1)},
			[]int64{0, 20, 22, 30, 31, 50}, "the minute of every claim and callback has a tick"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScale(plotLeft, plotRight-plotLeft, tc.from, tc.to, tc.marked, tc.marked, false)
			ticks := sc.ticks()
			for _, m := range tc.want {
				assert.Assert(t, slices.Contains(ticks, m), "%s: minute %d has no tick among %v", tc.story, m, ticks)
			}
		})
	}
}

// TestTickLabelsNeverTouch: whatever the marks, the labels of two ticks
// keep tickLabelGap between them, so that none reads as another.
func TestTickLabelsNeverTouch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 200 {
		var ms []Moment
		span := []int64{10, 60, 300, 5000}[round%4]
		for range 1 + r.IntN(20) {
			ms = append(ms, Moment{At: 1000 + r.Int64N(span), Step: r.IntN(3)})
		}
		sc := newScale(plotLeft, plotRight-plotLeft, 0, 0, ms, ms, round%5 == 0)
		ticks := sc.ticks()
		assert.Assert(t, slices.IsSorted(ticks), "ticks out of order: %v", ticks)
		for i := 1; i < len(ticks); i++ {
			a, b := sc.tickExtent(ticks[i-1]), sc.tickExtent(ticks[i])
			assert.Assert(t, a.x1+tickLabelGap <= b.x0, "the labels of ticks %d (%d..%d) and %d (%d..%d) touch", ticks[i-1], a.x0, a.x1, ticks[i], b.x0, b.x1)
		}
	}
}

// TestAPausesLabelLeavesItsHatchUncovered: the hatch says "paused" from
// where the pause begins, so the box behind a pause's label stays off
// it, whether the label would fit on the band (pause-past-ttl's
// "paused (SIGSTOP)") or not.
func TestAPausesLabelLeavesItsHatchUncovered(t *testing.T) {
	p := Panel{Title: "pause", Axis: Axis{Unit: "step", From: 0, To: 8}, Lanes: []Lane{{ID: "A", Label: "A"}, {ID: "B", Label: "B"}},
		Spans: []Span{
			{Lane: "A", Kind: Lease, From: At(1), To: At(4), Label: "token 2 · lease 1 s"},
			{Lane: "A", Kind: Pause, From: At(3), To: At(6), Label: "paused (SIGSTOP)"},
			{Lane: "B", Kind: Pause, From: At(2), To: At(3), Label: "stalled, with its copy, a label wider than its band"},
		},
		Events: []Event{{Lane: "A", At: At(1), Outcome: Accepted, Label: "lock", Result: "granted: token 2"}},
	}
	root := parse(t, draw(t, Figure{Title: "t", Panels: []Panel{p}}))
	pauses := 0
	walk(root, func(g *element) {
		if g.attrs["class"] != "span" {
			return
		}
		var hatch, boxes []*element
		for _, c := range g.children {
			switch {
			case c.name == "rect" && c.attrs["fill"] == "url(#hatch)":
				hatch = append(hatch, c)
			case c.name == "rect":
				boxes = append(boxes, c)
			}
		}
		if len(hatch) == 0 {
			return
		}
		pauses++
		assert.Assert(t, len(boxes) == 1, "the pause %q has no label box", g.children[0].text)
		h, b := box(t, hatch[0]), box(t, boxes[0])
		overlap := h[0] < b[2] && b[0] < h[2] && h[1] < b[3] && b[1] < h[3]
		assert.Check(t, !overlap, "the label of the pause %q (box %v) covers its hatch (%v)", g.children[0].text, b, h)
	})
	assert.Equal(t, pauses, 2, "pauses drawn")
}

// box is rect's [x0, y0, x1, y1].
func box(t *testing.T, rect *element) [4]int {
	t.Helper()
	var out [4]int
	for i, a := range []string{"x", "y", "width", "height"} {
		n, err := strconv.Atoi(rect.attrs[a])
		assert.NilError(t, err, "the rect's %s", a)
		out[i] = n
	}
	out[2] += out[0]
	out[3] += out[1]
	return out
}

// TestMarksWithoutWordsNeitherTouchNorHideTheTallies: kills among many,
// marks without words, are drawn apart from one another however close in
// time (in rows of their own), inside their lane, and, on a lane that
// counts things in columns, above the tallest column, which they would
// otherwise hide.
func TestMarksWithoutWordsNeitherTouchNorHideTheTallies(t *testing.T) {
	p := Panel{Title: "torture", Axis: Axis{Unit: "ms", From: 0, To: 1200, Exact: true},
		Lanes: []Lane{{ID: "members", Label: "etcd members"}, {ID: "w", Label: "worker-a", Note: "then worker-a2"}}}
	for i := range int64(12) {
		p.Tallies = append(p.Tallies, Tally{Lane: "w", From: At(i * 100), To: At(i*100 + 100), Count: 1 + int(i%5)})
	}
	for _, at := range []int64{300, 305, 310, 330, 360, 800, 1195, 1200} {
		for _, lane := range []string{"members", "w"} {
			p.Events = append(p.Events, Event{Lane: lane, At: At(at), Outcome: Killed, Title: "kill -9"})
		}
	}
	pp, err := planPanel(p)
	assert.NilError(t, err)
	for _, lp := range pp.lanes {
		var boxes [][4]int
		for _, ep := range lp.events {
			x, y := ep.x, lp.bareY(ep.row)
			boxes = append(boxes, [4]int{x - bareRadius, y - bareRadius, x + bareRadius, y + bareRadius})
		}
		for i, b := range boxes {
			assert.Check(t, b[1] >= lp.top && b[3] <= lp.top+lp.height, "%s: the kill at %v (%v) is outside its lane (%d..%d)",
				lp.lane.ID, lp.events[i].e.At, b, lp.top, lp.top+lp.height)
			if len(lp.tallies) > 0 {
				assert.Check(t, b[3] < lp.barY+tallyBase-tallyFull, "%s: the kill at %v (%v) hides the columns, which reach up to %d",
					lp.lane.ID, lp.events[i].e.At, b, lp.barY+tallyBase-tallyFull)
			}
			for j, o := range boxes[:i] {
				apart := b[0] >= o[2]+bareGap || o[0] >= b[2]+bareGap || b[1] >= o[3]+bareGap || o[1] >= b[3]+bareGap
				assert.Check(t, apart, "%s: the kills at %v (%v) and %v (%v) touch", lp.lane.ID, lp.events[j].e.At, o, lp.events[i].e.At, b)
			}
		}
	}
}

// TestTheColumnsHaveAVisibleScale: a lane that counts things in columns
// has a scale beside them, from 0 to the panel's largest count, so a
// column's count reads without hovering it.
func TestTheColumnsHaveAVisibleScale(t *testing.T) {
	root := parse(t, draw(t, sample()))
	scales := 0
	walk(root, func(g *element) {
		if g.attrs["class"] != "scale" {
			return
		}
		scales++
		var texts []string
		for _, c := range g.children {
			if c.name == "text" {
				texts = append(texts, c.text)
			}
		}
		assert.Check(t, cmp.DeepEqual(texts, []string{"3", "0"}), "the columns' scale says 0 and the largest count, 3")
	})
	assert.Equal(t, scales, 1, "one lane counts in columns: it has one scale")
}
