package timeline

// This file holds the legend: a line of symbols under the heading, each
// with its meaning, listing only what the figure draws, always in the
// same order.

import "slices"

// legendItem is one entry: how to draw its symbol centred on (x, y), and
// what it means.
type legendItem struct {
	draw func(c *canvas, x, y int)
	text string
}

// legendOf lists the entries f needs.
func legendOf(f Figure, plans []*panelPlan) []legendItem {
	has := func(pred func(Panel) bool) bool { return slices.ContainsFunc(f.Panels, pred) }
	spanKind := func(k SpanKind) bool {
		return has(func(p Panel) bool { return slices.ContainsFunc(p.Spans, func(s Span) bool { return s.Kind == k }) })
	}
	outcome := func(o Outcome) bool {
		return has(func(p Panel) bool { return slices.ContainsFunc(p.Events, func(e Event) bool { return e.Outcome == o }) })
	}
	var items []legendItem
	add := func(ok bool, text string, draw func(c *canvas, x, y int)) {
		if ok {
			items = append(items, legendItem{draw: draw, text: text})
		}
	}
	bar := func(k SpanKind) func(c *canvas, x, y int) {
		return func(c *canvas, x, y int) {
			// Each bar lifted (or lowered) to the legend's line.
			switch k {
			case Lease:
				drawBar(c, k, x-12, x+12, y, lowTop)
			case HostLease:
				drawBar(c, k, x-12, x+12, y-hostTop-hostThick/2, lowTop)
			default:
				drawBar(c, k, x-12, x+12, y-lowTop-subHeight/2, lowTop)
			}
		}
	}
	mark := func(o Outcome) func(c *canvas, x, y int) {
		r := legendRadius(f, o)
		return func(c *canvas, x, y int) { drawMarkSized(c, o, x, y, r) }
	}
	add(spanKind(Lease), "lease or claim held, with its token", bar(Lease))
	add(spanKind(HostLease), "host lease", bar(HostLease))
	add(spanKind(Pause), "paused or stalled", bar(Pause))
	add(spanKind(Cut), "cut off from the others (a partition)", bar(Cut))
	add(spanKind(Wait), "holding a decision read earlier", bar(Wait))
	add(spanKind(Work), "working", bar(Work))
	add(has(func(p Panel) bool { return len(p.Values) > 0 }), "committed state, changing at the black line", func(c *canvas, x, y int) {
		c.rect(x-12, y-8, 12, 16, ` fill="`+valueFills[0]+`" stroke="#8c8c8c" stroke-width="1"`)
		c.rect(x, y-8, 12, 16, ` fill="`+valueFills[1]+`" stroke="#8c8c8c" stroke-width="1"`)
		c.line(x, y-11, x, y+11, ` stroke="`+ink+`" stroke-width="2"`)
	})
	add(outcome(Accepted), "accepted", mark(Accepted))
	add(outcome(NoEffect), "accepted, nothing new written", mark(NoEffect))
	add(outcome(RolledBack), "rolled back: nothing committed", mark(RolledBack))
	add(outcome(Refused), "refused, and why", mark(Refused))
	add(outcome(Noted), "read or release", mark(Noted))
	add(outcome(Killed), "killed (kill -9)", mark(Killed))
	add(has(func(p Panel) bool {
		return slices.ContainsFunc(p.Events, func(e Event) bool { return e.Reaches != "" })
	}),
		"call reaching a store", func(c *canvas, x, y int) {
			c.line(x-12, y, x+10, y, ` stroke="#8c8c8c" stroke-width="1.5" stroke-dasharray="4 3" marker-end="url(#arrow)"`)
		})
	add(slices.ContainsFunc(plans, func(pp *panelPlan) bool { return len(pp.sc.times) > 0 }),
		"same instant, in the order it happened", func(c *canvas, x, y int) {
			c.line(x-12, y, x+12, y, ` stroke="`+muted+`" stroke-width="5" stroke-dasharray="2 3"`)
		})
	for i, name := range f.Series {
		fill := seriesLow
		if i > 0 {
			fill = seriesHigh
		}
		add(true, name, func(c *canvas, x, y int) {
			c.rect(x-12, y-4, 7, 12, ` fill="`+fill+`"`)
			c.rect(x-4, y-8, 7, 16, ` fill="`+fill+`"`)
			c.rect(x+4, y, 7, 8, ` fill="`+fill+`"`)
		})
	}
	return items
}

// legendRadius is the size the legend draws outcome o's mark at: the
// size the figure draws it, small if every such mark is without words.
func legendRadius(f Figure, o Outcome) int {
	for _, p := range f.Panels {
		for _, e := range p.Events {
			if e.Outcome == o && !e.bare() {
				return markRadius
			}
		}
	}
	return bareRadius
}

// drawLegend draws items in lines from y and returns the y under them.
func drawLegend(c *canvas, y int, items []legendItem) int {
	if len(items) == 0 {
		return y
	}
	const symbol, gap, line = 30, 22, 26
	y += line - 4
	x := margin
	c.printf(`<g class="legend">`)
	for _, it := range items {
		w := symbol + textWidth(it.text, smallSize+1)
		if x > margin && x+w > pageWidth-margin {
			x, y = margin, y+line
		}
		it.draw(c, x+14, y)
		c.text(x+symbol, y+5, smallSize+1, "start", it.text, ` fill="`+ink+`"`)
		x += w + gap
	}
	c.close()
	return y + line - 8
}
