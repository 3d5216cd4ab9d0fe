package timeline

// This file holds WriteSVG: the heading, the legend, and the panels
// stacked under them, in one standalone SVG document.

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// The figures WriteSVG refuses, with nothing written.
var (
	// ErrEmpty: a figure without panels has nothing to draw.
	ErrEmpty = errors.New("timeline: a figure without panels")
	// ErrUnknownLane: a span, event, value, tally or arrow names a lane
	// its panel does not have.
	ErrUnknownLane = errors.New("timeline: no such lane")
	// ErrDuplicateLane: two lanes of one panel have the same id.
	ErrDuplicateLane = errors.New("timeline: two lanes with one id")
	// ErrBackwards: a span ends before it begins.
	ErrBackwards = errors.New("timeline: a span that ends before it begins")
)

// fontFamily lists faces most systems have, none wider than the widths
// the layout assumes (see textWidth).
const fontFamily = "DejaVu Sans, Helvetica, Arial, sans-serif"

// WriteSVG writes f as one standalone SVG document: an XML declaration,
// one <svg> element with a white background (a README in a dark theme
// still shows black on white), and everything inside it. It returns an
// error, and writes nothing, for a figure it cannot draw (see ErrEmpty
// and the errors beside it).
func WriteSVG(w io.Writer, f Figure) error {
	if len(f.Panels) == 0 {
		return ErrEmpty
	}
	plans := make([]*panelPlan, len(f.Panels))
	for i, p := range f.Panels {
		pp, err := planPanel(p)
		if err != nil {
			return err
		}
		plans[i] = pp
	}
	var c canvas
	y := drawHeading(&c, f)
	y = drawLegend(&c, y, legendOf(f, plans))
	for i, pp := range plans {
		pp.draw(&c, y, i == 0)
		y += pp.height
	}
	height := y + margin

	var titles []string
	for _, p := range f.Panels {
		titles = append(titles, p.Title)
	}
	desc := strings.TrimSpace(f.About + " Panels: " + strings.Join(titles, "; ") + ".")
	var doc strings.Builder
	fmt.Fprintf(&doc, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-labelledby="title desc" font-family="%s">
<title id="title">%s</title>
<desc id="desc">%s</desc>
%s
<rect width="%d" height="%d" fill="#ffffff"/>
`, pageWidth, height, pageWidth, height, fontFamily, esc(f.Title), esc(desc), defs, pageWidth, height)
	doc.WriteString(c.b.String())
	doc.WriteString("</svg>\n")
	_, err := io.WriteString(w, doc.String())
	return err
}

// drawHeading draws the figure's title and about line and returns the y
// under them.
func drawHeading(c *canvas, f Figure) int {
	y := margin + titleSize
	c.text(margin, y, titleSize, "start", f.Title, ` font-weight="bold"`)
	for _, l := range wrap(f.About, textSize, pageWidth-2*margin) {
		y += lineHeight(textSize) + 2
		c.text(margin, y, textSize, "start", l, ` fill="`+muted+`"`)
	}
	return y + 10
}
