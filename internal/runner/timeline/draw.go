package timeline

// This file draws a measured panel, back to front: lane backgrounds and
// the tick guides, the arrows of calls to a store, bars, value bands and
// tallies, rules, then the marks and every label on a white box, so that
// nothing drawn earlier runs through a word.

import (
	"fmt"
	"strings"
)

// draw draws pp with its top at y on c.
func (pp *panelPlan) draw(c *canvas, y int, first bool) {
	c.printf(`<g class="panel" transform="translate(0,%d)">`, y)
	if !first {
		c.line(margin, 0, pageWidth-margin, 0, ` stroke="#999999" stroke-width="1"`)
	}
	c.text(margin, 24, headSize, "start", pp.p.Title, ` font-weight="bold"`)
	for i, l := range pp.about {
		c.text(margin, 24+(i+1)*lineHeight(smallSize+1), smallSize+1, "start", l, ` fill="`+muted+`"`)
	}
	for _, lp := range pp.lanes {
		c.rect(margin, lp.top, pageWidth-2*margin, lp.height, ` fill="`+lp.shade+`"`)
	}
	for _, t := range pp.sc.ticks() {
		x := pp.sc.x(At(t))
		c.line(x, pp.lanesTop, x, pp.axisY, ` stroke="`+faint+`" stroke-width="1"`)
	}
	for _, lp := range pp.lanes {
		pp.drawArrows(c, lp)
	}
	for _, lp := range pp.lanes {
		pp.drawLaneLabel(c, lp)
		pp.drawSpans(c, lp)
		pp.drawValues(c, lp)
		pp.drawTallies(c, lp)
	}
	pp.drawRules(c)
	for _, lp := range pp.lanes {
		pp.drawEvents(c, lp)
	}
	pp.drawAxis(c)
	for i, n := range pp.p.Notes {
		c.text(margin, pp.axisY+58+i*lineHeight(smallSize+1), smallSize+1, "start", n, "")
	}
	c.close()
}

func (pp *panelPlan) drawLaneLabel(c *canvas, lp *lanePlan) {
	title := lp.lane.Label
	if lp.lane.Note != "" {
		title += ": " + lp.lane.Note
	}
	c.open("lane", firstOf(title, lp.lane.ID))
	c.text(margin+6, lp.barY+5, textSize, "start", lp.lane.Label, ` font-weight="bold"`)
	c.text(margin+6, lp.barY+5+lineHeight(smallSize)+1, smallSize, "start", lp.lane.Note, ` fill="`+muted+`"`)
	c.close()
}

// drawArrows draws, for each call on lp that reaches a store lane, a
// dashed arrow from its mark to that lane's band.
func (pp *panelPlan) drawArrows(c *canvas, lp *lanePlan) {
	for _, ep := range lp.events {
		to, ok := pp.byID[ep.e.Reaches]
		if !ok || to == lp {
			continue
		}
		y0, y1 := lp.barY+markRadius+2, to.barY-bandHalf-1
		if to.barY < lp.barY {
			y0, y1 = lp.barY-markRadius-2, to.barY+bandHalf+1
		}
		c.line(ep.x, y0, ep.x, y1, ` stroke="#8c8c8c" stroke-width="1.5" stroke-dasharray="4 3" marker-end="url(#arrow)"`)
	}
}

func (pp *panelPlan) drawSpans(c *canvas, lp *lanePlan) {
	for _, sp := range lp.spans {
		c.open("span", firstOf(sp.s.Title, sp.s.Label, spanWords[sp.s.Kind]))
		drawBar(c, sp.s.Kind, sp.x0, sp.x1, lp.barY, lp.low)
		switch {
		case sp.s.Label == "" || sp.s.Kind == HostLease:
		case sp.inside:
			y := lp.barY + lp.low + subHeight - 2
			c.labelBox(sp.x0+6, y, smallSize-1, lp.shade, sp.s.Label)
			c.text(sp.x0+6, y, smallSize-1, "start", sp.s.Label, ` fill="`+ink+`"`)
		case sp.under:
			y := lp.barY + lp.low + subHeight + sp.row*underRow + smallSize + 2
			c.labelBox(sp.lx, y, smallSize-1, lp.shade, sp.s.Label)
			c.text(sp.lx, y, smallSize-1, "start", sp.s.Label, ` fill="`+ink+`"`)
		default:
			y := lp.barY - barHalf - 6 - lp.lift - sp.row*aboveRow
			c.labelBox(sp.lx, y, smallSize, lp.shade, sp.s.Label)
			c.text(sp.lx, y, smallSize, "start", sp.s.Label, ` fill="`+ink+`"`)
		}
		c.close()
	}
}

func (pp *panelPlan) drawValues(c *canvas, lp *lanePlan) {
	for _, vp := range lp.values {
		c.open("value", firstOf(vp.v.Title, vp.v.Text, "committed state"))
		c.rect(vp.x0, lp.barY-bandHalf, vp.x1-vp.x0, 2*bandHalf, ` fill="`+vp.fill+`" stroke="#8c8c8c" stroke-width="1"`)
		c.line(vp.x0, lp.barY-bandHalf-3, vp.x0, lp.barY+bandHalf+3, ` stroke="`+ink+`" stroke-width="2"`)
		if vp.inside {
			c.text(vp.x0+4, lp.barY+4, smallSize, "start", vp.v.Text, ` fill="`+ink+`"`)
		} else {
			y := lp.labelTop + vp.row*valueRow + smallSize
			c.line(vp.x0+1, lp.barY+bandHalf, vp.x0+1, y-smallSize, ` stroke="#8c8c8c" stroke-width="1"`)
			c.labelBox(vp.lx, y, smallSize, lp.shade, vp.v.Text)
			c.text(vp.lx, y, smallSize, "start", vp.v.Text, ` fill="`+ink+`"`)
		}
		c.close()
	}
}

func (pp *panelPlan) drawTallies(c *canvas, lp *lanePlan) {
	if pp.tallyMax == 0 {
		return
	}
	full, base := tallyFull, lp.barY+tallyBase
	for _, t := range lp.tallies {
		if t.Count == 0 {
			continue
		}
		x0, x1 := pp.sc.x(t.From), pp.sc.x(t.To)
		h := max(1, t.Count*full/pp.tallyMax)
		fill := seriesLow
		if t.Series > 0 {
			fill = seriesHigh
		}
		c.open("tally", firstOf(t.Title, fmt.Sprintf("%d", t.Count)))
		c.rect(x0, base-h, max(x1-x0-1, 1), h, ` fill="`+fill+`"`)
		c.close()
	}
	if len(lp.tallies) > 0 {
		pp.drawCountScale(c, lp)
	}
}

// drawCountScale draws the scale of lp's tallies right of the plot: a
// line from the base to the height of the panel's largest tally, with
// their counts, 0 and the largest, so that a column's count reads
// without hovering it.
func (pp *panelPlan) drawCountScale(c *canvas, lp *lanePlan) {
	x, base, top := pp.sc.end()+3, lp.barY+tallyBase, lp.barY+tallyBase-tallyFull
	stroke := ` stroke="` + muted + `" stroke-width="1"`
	c.open("scale", fmt.Sprintf("the scale of the columns: 0 at the base, %d at the top, the largest count in this panel", pp.tallyMax))
	c.line(x, base, x, top, stroke)
	for _, y := range []int{base, top} {
		c.line(x, y, x+3, y, stroke)
	}
	c.text(x+5, top+7, smallSize-2, "start", fmt.Sprint(pp.tallyMax), ` fill="`+muted+`"`)
	c.text(x+5, base, smallSize-2, "start", "0", ` fill="`+muted+`"`)
	c.close()
}

func (pp *panelPlan) drawRules(c *canvas) {
	for _, r := range pp.p.Rules {
		x := pp.sc.x(r.At)
		c.open("rule", firstOf(r.Title, r.Label, "rule"))
		c.line(x, pp.lanesTop-4, x, pp.axisY, ` stroke="`+refusedInk+`" stroke-width="2.5" stroke-dasharray="8 4"`)
		lx := max(min(x-6, labelEdge-textWidth(r.Label, smallSize+1)), plotLeft-10)
		c.text(lx, pp.lanesTop-6, smallSize+1, "start", r.Label, ` font-weight="bold" fill="`+refusedInk+`"`)
		c.close()
	}
}

func (pp *panelPlan) drawEvents(c *canvas, lp *lanePlan) {
	for _, ep := range lp.events {
		e := ep.e
		c.open("mark", firstOf(e.Title, strings.Trim(e.Label+": "+e.Result, ": "), outcomeWords[e.Outcome]))
		if e.bare() {
			drawMarkSized(c, e.Outcome, ep.x, lp.bareY(ep.row), bareRadius)
			c.close()
			continue
		}
		y := lp.labelTop + ep.row*eventRow + smallSize + 2
		c.line(ep.x, lp.barY+markRadius+2, ep.x, y-smallSize-1, ` stroke="#b3b3b3" stroke-width="1"`)
		drawMark(c, e.Outcome, ep.x, lp.barY)
		lines := []string{e.Label}
		if e.Result != "" {
			lines = append(lines, e.Result)
		}
		c.labelBox(ep.lx, y, smallSize+1, lp.shade, lines...)
		c.text(ep.lx, y, smallSize+1, "start", e.Label, ` fill="`+ink+`"`)
		c.text(ep.lx, y+lineHeight(smallSize+1), smallSize+1, "start", e.Result, resultStyle(e.Outcome))
		c.close()
	}
}

// resultStyle sets a refusal's answer in bold: the word "refused" says
// it, and the weight makes it stand out without colour.
func resultStyle(o Outcome) string {
	if o == Refused || o == RolledBack || o == Killed {
		return ` font-weight="bold" fill="` + ink + `"`
	}
	return ` fill="` + muted + `"`
}

func (pp *panelPlan) drawAxis(c *canvas) {
	sc, y := pp.sc, pp.axisY
	c.line(sc.left, y, sc.end(), y, ` stroke="`+ink+`" stroke-width="1.5"`)
	for _, s := range sc.stretches() {
		c.open("same-instant", fmt.Sprintf("several things at %s %d, in the order they happened", pp.p.Axis.Unit, pp.atOf(s[0])))
		c.line(s[0], y, s[1], y, ` stroke="`+muted+`" stroke-width="5" stroke-dasharray="2 3"`)
		c.close()
	}
	for _, t := range sc.ticks() {
		x := sc.x(At(t))
		c.line(x, y, x, y+6, ` stroke="`+ink+`" stroke-width="1.5"`)
		c.text(x, y+20, smallSize, "middle", fmt.Sprint(t), ` fill="`+ink+`"`)
	}
	label := pp.p.Axis.Unit
	if pp.p.Axis.Clock != "" {
		label += " (" + pp.p.Axis.Clock + ")"
	}
	c.text(sc.end(), y+36, smallSize, "end", label+" →", ` fill="`+muted+`"`)
}

// atOf is the instant whose Step 0 is at x: the one with extra steps
// that starts there.
func (pp *panelPlan) atOf(x int) int64 {
	for _, t := range pp.sc.times {
		if pp.sc.x(At(t)) == x {
			return t
		}
	}
	return 0
}

// firstOf is the first of texts that is not empty: a hover text is never
// empty.
func firstOf(texts ...string) string {
	for _, t := range texts {
		if t != "" {
			return t
		}
	}
	return ""
}

// spanWords and outcomeWords are the hover texts of a span or a mark
// that has no words of its own.
var (
	spanWords    = map[SpanKind]string{Lease: "lease", HostLease: "host lease", Pause: "paused", Cut: "cut off", Wait: "holding a decision read earlier", Work: "working"}
	outcomeWords = map[Outcome]string{Accepted: "accepted", NoEffect: "accepted, nothing new written", RolledBack: "rolled back",
		Refused: "refused", Noted: "read or release", Killed: "killed"}
)
