package timeline

// This file draws the symbols: one shape per outcome, told apart by the
// shape before the colour, and the bars of the spans. The legend draws
// the same symbols, so a reader matches them by eye.

// markRadius is the size of an outcome's mark around its centre.
// bareRadius is the size of a mark without words (a kill among many):
// small, so that a run of them neither merges into one blot nor hides
// what the lane counts; bareGap keeps two of them apart, and bareRow is
// the distance between two rows of them.
const (
	markRadius = 7
	bareRadius = 4
	bareGap    = 3
	bareRow    = 2*bareRadius + bareGap
)

// halo is drawn under every mark: a white outline that keeps the mark
// apart from the bar it sits on.
const halo = ` stroke="#ffffff" stroke-width="5"`

// drawMark draws the symbol of outcome o centred on (x, y).
func drawMark(c *canvas, o Outcome, x, y int) { drawMarkSized(c, o, x, y, markRadius) }

// drawMarkSized draws the symbol of outcome o centred on (x, y), r from
// its centre to its edge.
func drawMarkSized(c *canvas, o Outcome, x, y, r int) {
	switch o {
	case Accepted:
		c.printf(`<circle cx="%d" cy="%d" r="%d" fill="%s"%s/>`, x, y, r+1, okFill, halo)
		c.printf(`<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="%s" stroke-width="1.5"/>`, x, y, r, okFill, okLine)
	case NoEffect:
		c.printf(`<circle cx="%d" cy="%d" r="%d" fill="none"%s/>`, x, y, r, halo)
		c.printf(`<circle cx="%d" cy="%d" r="%d" fill="#ffffff" stroke="%s" stroke-width="3"/>`, x, y, r-1, okFill)
	case RolledBack:
		c.printf(`<circle cx="%d" cy="%d" r="%d" fill="none"%s/>`, x, y, r, halo)
		c.printf(`<circle cx="%d" cy="%d" r="%d" fill="#ffffff" stroke="%s" stroke-width="3"/>`, x, y, r-1, rolledInk)
		c.line(x-r+2, y+r-2, x+r-2, y-r+2, ` stroke="`+rolledInk+`" stroke-width="3"`)
	case Refused:
		for _, attrs := range []string{halo, ` stroke="` + refusedInk + `" stroke-width="3.5"`} {
			c.line(x-r, y-r, x+r, y+r, attrs)
			c.line(x-r, y+r, x+r, y-r, attrs)
		}
	case Noted:
		d := r
		c.printf(`<polygon points="%d,%d %d,%d %d,%d %d,%d" fill="#ffffff" stroke="%s" stroke-width="2"/>`,
			x, y-d, x+d, y, x, y+d, x-d, y, muted)
	case Killed:
		c.rect(x-r, y-r, 2*r, 2*r, ` fill="#000000"`+halo)
		c.rect(x-r, y-r, 2*r, 2*r, ` fill="#000000"`)
	}
}

// Bar geometry, relative to a lane's bar line (the y its marks sit on):
// the lease bar around it; under it a host lease's thin bar; and under
// that a row for pauses, cuts, waits and work, which starts higher on a lane without
// host leases.
const (
	barHalf   = 9  // the lease bar: barY-barHalf .. barY+barHalf
	hostTop   = 11 // a host lease: barY+hostTop ..
	hostThick = 6  //   .. barY+hostTop+hostThick
	lowTop    = 12 // the lower row: barY+lowTop (or lowPast) ..
	lowPast   = 20 //   (lowPast on a lane with host leases)
	subHeight = 14 //   .. plus subHeight
)

// Tallies stand on a base under the bar line; the panel's largest is as
// high as the lease bar and a little more.
const (
	tallyBase = barHalf + 4           // the base: barY+tallyBase
	tallyFull = 2*barHalf + 8         // the largest tally's height
	tallyTop  = tallyFull - tallyBase // how far above barY the largest reaches
)

// drawBar draws span kind k from x0 to x1 on a lane whose bar line is at
// y and whose lower row starts low below it.
func drawBar(c *canvas, k SpanKind, x0, x1, y, low int) {
	w := max(x1-x0, 3)
	switch k {
	case Lease:
		c.rect(x0, y-barHalf, w, 2*barHalf, ` rx="3" fill="`+leaseFill+`" stroke="`+leaseLine+`" stroke-width="1.5"`)
	case HostLease:
		c.rect(x0, y+hostTop, w, hostThick, ` fill="`+hostFill+`"`)
	case Pause:
		c.rect(x0, y+low, w, subHeight, ` fill="url(#hatch)" stroke="`+muted+`" stroke-width="1"`)
	case Work:
		c.rect(x0, y+low, w, subHeight, ` fill="#d9efe8" stroke="`+okLine+`" stroke-width="1"`)
	case Cut:
		c.rect(x0, y+low, w, subHeight, ` fill="#ffffff" stroke="`+muted+`" stroke-width="1.5" stroke-dasharray="5 3"`)
	case Wait:
		c.line(x0, y+low+subHeight/2, x0+w, y+low+subHeight/2, ` stroke="`+muted+`" stroke-width="2" stroke-dasharray="6 4"`)
	}
}

// defs are the patterns the bars use.
const defs = `<defs>
<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<rect width="6" height="6" fill="#ffffff"/>
<line x1="0" y1="0" x2="0" y2="6" stroke="#333333" stroke-width="2.5"/>
</pattern>
<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
<path d="M0,0 L10,5 L0,10 z" fill="#8c8c8c"/>
</marker>
</defs>`
