package timeline

// This file holds the canvas: the few SVG elements the pictures use,
// written one a line with integer coordinates, so that the same drawing
// is always the same bytes.

import (
	"fmt"
	"strings"
)

// The picture's colours. The ones that carry meaning are from the
// Okabe-Ito set (safe for the common colour blindnesses); each is paired
// with a shape or a pattern, so a grey print loses nothing.
const (
	ink        = "#1a1a1a"
	muted      = "#4d4d4d"
	faint      = "#e6e6e6"
	laneShade  = "#f6f6f6"
	storeShade = "#eef1f4"
	leaseFill  = "#cde6f6"
	leaseLine  = "#0072B2" // blue
	hostFill   = "#E69F00" // orange
	okFill     = "#009E73" // bluish green
	okLine     = "#005a41"
	refusedInk = "#D55E00" // vermillion
	rolledInk  = "#CC79A7" // reddish purple
	seriesLow  = "#56B4E9" // sky blue
	seriesHigh = "#0072B2" // blue
)

// valueFills alternate along a store lane, so each committed value is a
// band of its own even in grey.
var valueFills = [2]string{"#f4f4f4", "#d9d9d9"}

// canvas collects SVG elements.
type canvas struct{ b strings.Builder }

func (c *canvas) printf(format string, args ...any) {
	fmt.Fprintf(&c.b, format, args...)
	c.b.WriteByte('\n')
}

// text writes s at (x, y) at size px; anchor is start, middle or end;
// attrs are further attributes, each with a leading space.
func (c *canvas) text(x, y, size int, anchor, s, attrs string) {
	if s == "" {
		return
	}
	a := ""
	if anchor != "start" {
		a = fmt.Sprintf(` text-anchor="%s"`, anchor)
	}
	c.printf(`<text x="%d" y="%d" font-size="%d"%s%s>%s</text>`, x, y, size, a, attrs, esc(s))
}

func (c *canvas) rect(x, y, w, h int, attrs string) {
	c.printf(`<rect x="%d" y="%d" width="%d" height="%d"%s/>`, x, y, max(w, 0), max(h, 0), attrs)
}

func (c *canvas) line(x1, y1, x2, y2 int, attrs string) {
	c.printf(`<line x1="%d" y1="%d" x2="%d" y2="%d"%s/>`, x1, y1, x2, y2, attrs)
}

// open starts a group whose hover text is title; close ends it.
func (c *canvas) open(class, title string) {
	c.printf(`<g class="%s"><title>%s</title>`, class, esc(title))
}

func (c *canvas) close() { c.printf("</g>") }

// labelBox writes a box of colour fill (the lane's own) behind a label
// of lines at (x, y), the baseline of its first line, so that lines drawn
// under it do not cross the text.
func (c *canvas) labelBox(x, y, size int, fill string, lines ...string) {
	w := linesWidth(size, lines...)
	c.rect(x-3, y-size-1, w+6, (len(lines)-1)*lineHeight(size)+size+5, ` fill="`+fill+`"`)
}

// lineHeight is the distance between two baselines of text at size.
func lineHeight(size int) int { return size + size/4 + 1 }
