package timeline

// This file lays out one panel (draw.go draws it): its heading, its lanes
// from top to bottom, the axis under them and the notes under the axis.
// Each lane is measured before anything is drawn: how many rows of labels
// it needs above its bar line (span labels, and marks without words kept
// apart), right under its pauses (their labels) and below it all (the
// labels of its marks, and values too long for their band), which fixes
// its height.

import (
	"fmt"
	"slices"
	"strings"
)

// The page, in pixels. Lane labels sit in the gutter left of the plot.
const (
	pageWidth = 960
	margin    = 16
	gutter    = 150
	plotLeft  = margin + gutter
	plotRight = pageWidth - 36
	labelEdge = pageWidth - margin - 4 // how far right a label may reach
)

// Rows of labels, in pixels.
const (
	aboveRow = 18 // a span label above the bar
	underRow = 16 // a pause's label under its hatch
	eventRow = 38 // a mark's two lines
	valueRow = 20 // a value's one line
	bandHalf = 12 // a store's value band around its bar line
)

// lanePlan is one lane, measured.
type lanePlan struct {
	lane     Lane
	shade    string
	top      int // y of the lane's top edge
	height   int
	barY     int // y of the bar line
	low      int // where its row of pauses, cuts, waits and work starts, under barY
	labelTop int // y where the rows of labels under the bar begin
	above    int // rows of span labels above the bar
	pauses   int // rows of pause labels under the lower row
	bare     int // rows of marks without words, from the bare line up
	lift     int // how far the bar line moves down to make room for them
	spans    []spanPlan
	events   []eventPlan
	values   []valuePlan
	tallies  []Tally
}

type spanPlan struct {
	s      Span
	x0, x1 int
	inside bool // the label fits on its band (in the lower row only)
	under  bool // else, a pause's, it goes in rows under its hatch
	lx     int  // else the left end of its label, in its row (above the bar, or under the hatch)
	row    int
}

type eventPlan struct {
	e   Event
	x   int
	lx  int // the left end of its label
	row int
}

type valuePlan struct {
	v      Value
	x0, x1 int
	fill   string
	inside bool
	lx     int
	row    int
}

// panelPlan is one panel, measured; drawing it needs only this.
type panelPlan struct {
	p               Panel
	sc              *scale
	about           []string // the about line, wrapped
	lanes           []*lanePlan
	byID            map[string]*lanePlan
	height          int
	lanesTop, axisY int
	tallyMax        int
}

// planPanel measures p for a page; its lanes start at y offsets relative
// to the panel's top.
func planPanel(p Panel) (*panelPlan, error) {
	pp := &panelPlan{p: p, byID: map[string]*lanePlan{}}
	for i, l := range p.Lanes {
		if _, dup := pp.byID[l.ID]; dup {
			return nil, fmt.Errorf("panel %q: lane %q: %w", p.Title, l.ID, ErrDuplicateLane)
		}
		lp := &lanePlan{lane: l, shade: laneShade}
		if i%2 == 1 {
			lp.shade = "#ffffff"
		}
		if l.Store {
			lp.shade = storeShade
		}
		pp.lanes = append(pp.lanes, lp)
		pp.byID[l.ID] = lp
	}
	if err := pp.assign(); err != nil {
		return nil, err
	}
	all, marked := pp.moments() // fixes the axis' range if the panel gives none
	pp.sc = newScale(plotLeft, plotRight-plotLeft, pp.p.Axis.From, pp.p.Axis.To, all, marked, pp.p.Axis.Exact)
	pp.about = wrap(p.About, smallSize+1, pageWidth-2*margin)

	y := 30 + len(pp.about)*lineHeight(smallSize+1)
	if len(p.Rules) > 0 {
		y += aboveRow
	}
	pp.lanesTop = y
	for _, lp := range pp.lanes {
		lp.top = y
		pp.measure(lp)
		y += lp.height
	}
	pp.axisY = y + 4
	pp.height = pp.axisY + 44 + len(p.Notes)*lineHeight(smallSize+1) + 14
	for _, t := range p.Tallies {
		pp.tallyMax = max(pp.tallyMax, t.Count)
	}
	return pp, nil
}

// assign hands every span, event, value and tally to its lane.
func (pp *panelPlan) assign() error {
	lane := func(what, id string) (*lanePlan, error) {
		if lp, ok := pp.byID[id]; ok {
			return lp, nil
		}
		return nil, fmt.Errorf("panel %q: %s names lane %q: %w", pp.p.Title, what, id, ErrUnknownLane)
	}
	for _, s := range pp.p.Spans {
		lp, err := lane("a span", s.Lane)
		if err != nil {
			return err
		}
		if s.To.before(s.From) {
			return fmt.Errorf("panel %q: span %q on lane %q: %w", pp.p.Title, s.Label, s.Lane, ErrBackwards)
		}
		lp.spans = append(lp.spans, spanPlan{s: s})
	}
	for _, e := range pp.p.Events {
		lp, err := lane("an event", e.Lane)
		if err != nil {
			return err
		}
		if e.Reaches != "" {
			if _, err := lane("an event's Reaches", e.Reaches); err != nil {
				return err
			}
		}
		lp.events = append(lp.events, eventPlan{e: e})
	}
	for _, v := range pp.p.Values {
		lp, err := lane("a value", v.Lane)
		if err != nil {
			return err
		}
		lp.values = append(lp.values, valuePlan{v: v})
	}
	for _, t := range pp.p.Tallies {
		lp, err := lane("a tally", t.Lane)
		if err != nil {
			return err
		}
		lp.tallies = append(lp.tallies, t)
	}
	return nil
}

// moments lists every moment the panel draws, for the axis, and those
// of them that have a mark or a line of their own, which must not fall on
// each other.
func (pp *panelPlan) moments() (ms, marked []Moment) {
	for _, e := range pp.p.Events {
		marked = append(marked, e.At)
	}
	for _, v := range pp.p.Values {
		marked = append(marked, v.From)
	}
	for _, r := range pp.p.Rules {
		marked = append(marked, r.At)
	}
	ms = append(ms, marked...)
	for _, s := range pp.p.Spans {
		ms = append(ms, s.From, s.To)
	}
	for _, t := range pp.p.Tallies {
		ms = append(ms, t.From, t.To)
	}
	if pp.p.Axis.From == 0 && pp.p.Axis.To == 0 && len(ms) > 0 {
		// No range given: from the first moment to a tenth past the
		// last, so the last bar and value do not end on the frame.
		lo, hi := ms[0].At, ms[0].At
		for _, m := range ms {
			lo, hi = min(lo, m.At), max(hi, m.At)
		}
		pp.p.Axis.From, pp.p.Axis.To = lo, hi+max(1, (hi-lo)/10)
	}
	return ms, marked
}

// measure places lp's labels in rows and sets its height and bar line.
func (pp *panelPlan) measure(lp *lanePlan) {
	sc := pp.sc
	// Span labels go on their bar if they fit, else in rows above it. A
	// pause's goes in rows right under its band: on the band, it would
	// hide the hatch that says "paused" where the pause begins.
	var above, pauses []extent
	var aboveIdx, pauseIdx []int
	for i := range lp.spans {
		sp := &lp.spans[i]
		sp.x0, sp.x1 = sc.x(sp.s.From), sc.x(sp.s.To)
		w := textWidth(sp.s.Label, smallSize)
		switch {
		case sp.s.Label == "" || sp.s.Kind == HostLease:
			// Drawn without a label: the hover text and legend say it.
		case sp.s.Kind == Pause:
			// A little right of where it begins, clear of the line of
			// the mark that usually stands there.
			sp.under = true
			sp.lx = max(min(sp.x0+6, labelEdge-w), plotLeft-10)
			pauses = append(pauses, extent{sp.lx, sp.lx + w, sp.x0})
			pauseIdx = append(pauseIdx, i)
		case sp.s.Kind != Lease && w+10 <= sp.x1-sp.x0:
			// On its own band in the row under the bar. A lease's label
			// never goes on its bar: the marks of its calls sit there.
			sp.inside = true
		default:
			sp.lx = max(min(sp.x0, labelEdge-w), plotLeft-10)
			above = append(above, extent{sp.lx, sp.lx + w, sp.x0})
			aboveIdx = append(aboveIdx, i)
		}
	}
	rowOf, n := rowsInOrder(above)
	for k, i := range aboveIdx {
		lp.spans[i].row = rowOf[k]
	}
	lp.above = n
	rowOf, lp.pauses = rowsInOrder(pauses)
	for k, i := range pauseIdx {
		lp.spans[i].row = rowOf[k]
	}

	// Marks' labels go in rows under the bar, each starting where its
	// mark is (or as far right as the page allows).
	// A mark without words (a kill among many) has only its hover text;
	// such marks go in rows of their own, so that none covers another.
	var below, bare []extent
	var belowIdx, bareIdx []int
	for i := range lp.events {
		ep := &lp.events[i]
		ep.x = sc.x(ep.e.At)
		if ep.e.bare() {
			bare = append(bare, extent{ep.x - bareRadius, ep.x + bareRadius, ep.x})
			bareIdx = append(bareIdx, i)
			continue
		}
		w := linesWidth(smallSize+1, ep.e.Label, ep.e.Result)
		ep.lx = max(min(ep.x-6, labelEdge-w), plotLeft-10)
		below = append(below, extent{ep.lx, ep.lx + w, ep.x})
		belowIdx = append(belowIdx, i)
	}
	rowOf, events := rowsInOrder(below)
	for k, i := range belowIdx {
		lp.events[i].row = rowOf[k]
	}
	rowOf, lp.bare = rowsApart(bare, bareGap)
	for k, i := range bareIdx {
		lp.events[i].row = rowOf[k]
	}
	lp.lift = lp.liftForBare()

	// A store's values are bands; a text too long for its band goes in
	// a row under it.
	var under []extent
	var underIdx []int
	for i := range lp.values {
		vp := &lp.values[i]
		vp.x0 = sc.x(vp.v.From)
		vp.x1 = sc.end()
		for _, o := range lp.values[i+1:] {
			if vp.v.From.before(o.v.From) {
				vp.x1 = min(vp.x1, sc.x(o.v.From))
			}
		}
		vp.fill = valueFills[i%2]
		w := textWidth(vp.v.Text, smallSize)
		if w+8 <= vp.x1-vp.x0 {
			vp.inside = true
			continue
		}
		vp.lx = max(min(vp.x0+2, labelEdge-w), plotLeft-10)
		under = append(under, extent{vp.lx, vp.lx + w, vp.x0})
		underIdx = append(underIdx, i)
	}
	rowOf, values := rowsInOrder(under)
	for k, i := range underIdx {
		lp.values[i].row = rowOf[k]
	}

	lp.barY = lp.top + 8 + lp.above*aboveRow + bandHalf + 4 + lp.lift
	lp.low = lowTop
	bottom := lp.barY + barHalf
	if lp.has(HostLease) {
		lp.low = lowPast
		bottom = lp.barY + hostTop + hostThick
	}
	switch {
	case lp.lane.Store:
		bottom = lp.barY + bandHalf
	case lp.has(Pause) || lp.has(Cut) || lp.has(Wait) || lp.has(Work):
		bottom = lp.barY + lp.low + subHeight + lp.pauses*underRow
	case len(lp.tallies) > 0:
		bottom = max(bottom, lp.barY+tallyBase)
	}
	lp.labelTop = bottom + 6
	lp.height = lp.labelTop - lp.top + events*eventRow + values*valueRow + 4
	// The lane's own label needs room too.
	if lp.lane.Note != "" {
		lp.height = max(lp.height, lp.barY-lp.top+5+lineHeight(smallSize)+8)
	}
}

// bareLine is how far above the bar line the first row of marks without
// words stands: on it, or over the tallies, which a mark there would
// hide. Further rows stand higher, bareRow apart.
func (lp *lanePlan) bareLine() int {
	if len(lp.tallies) > 0 {
		return tallyTop + bareGap + bareRadius
	}
	return 0
}

// bareY is the y of a mark without words in row row.
func (lp *lanePlan) bareY(row int) int { return lp.barY - lp.bareLine() - row*bareRow }

// liftForBare is how far the bar line must move down for the rows of
// marks without words to fit above it: under the span labels, if the
// lane has any, else under the lane's top edge.
func (lp *lanePlan) liftForBare() int {
	if lp.bare == 0 {
		return 0
	}
	reach := lp.bareLine() + (lp.bare-1)*bareRow + bareRadius // from the bar line up
	room := bandHalf + 4 + 8 - bareGap                        // up to the lane's top edge
	if lp.above > 0 {
		room = barHalf - 4 // up to the boxes of the first row of span labels
	}
	return max(0, reach-room)
}

// has reports whether the lane draws a span of kind k.
func (lp *lanePlan) has(k SpanKind) bool {
	return slices.ContainsFunc(lp.spans, func(sp spanPlan) bool { return sp.s.Kind == k })
}

// rowsInOrder is rows of labels over es sorted by their keys (stably),
// with the rows given back in es's order.
func rowsInOrder(es []extent) ([]int, int) { return rowsApart(es, labelGap) }

// rowsApart is rowsInOrder for things that need gap between them.
func rowsApart(es []extent, gap int) ([]int, int) {
	order := make([]int, len(es))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return es[a].key - es[b].key })
	sorted := make([]extent, len(es))
	for k, i := range order {
		sorted[k] = es[i]
	}
	r, n := rows(sorted, gap)
	out := make([]int, len(es))
	for k, i := range order {
		out[i] = r[k]
	}
	return out, n
}

// wrap breaks s into lines no wider than width at size, at spaces.
func wrap(s string, size, width int) []string {
	if s == "" {
		return nil
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && textWidth(line+" "+w, size) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
