package timeline

// This file holds what the layout needs to know about text without a
// font at hand: how wide a label will be, and how to put labels in rows
// so that none overlaps another. The widths are estimates on the wide
// side, so a label may end up with more room than it needs, never less.

import (
	"strings"
	"unicode/utf8"
)

// Font sizes, in pixels: headings, ordinary labels, small print.
const (
	titleSize = 20
	headSize  = 16
	textSize  = 14
	smallSize = 12
)

// textWidth estimates the width in pixels of s set at size px in a
// sans-serif face: about six tenths of the size per character, which
// errs wide for the usual faces (DejaVu Sans, Helvetica, Arial).
func textWidth(s string, size int) int {
	return (utf8.RuneCountInString(s)*size*62 + 99) / 100
}

// linesWidth is the widest of lines at size.
func linesWidth(size int, lines ...string) int {
	w := 0
	for _, l := range lines {
		w = max(w, textWidth(l, size))
	}
	return w
}

// extent is the horizontal room a label takes, [x0, x1), and the x of
// what it labels (its key: labels are given rows in the order of what
// they label, left to right).
type extent struct{ x0, x1, key int }

// labelGap is the least room between two labels in one row.
const labelGap = 10

// rows puts each extent, in the order given, in the first row whose last
// extent ends at least gap before it starts, and returns each one's row
// and how many rows there are. So no two extents in a row overlap,
// whatever the order.
func rows(es []extent, gap int) ([]int, int) {
	var ends []int // the right end of the last extent in each row
	out := make([]int, len(es))
	for i, e := range es {
		r := 0
		for r < len(ends) && ends[r]+gap > e.x0 {
			r++
		}
		if r == len(ends) {
			ends = append(ends, 0)
		}
		ends[r] = e.x1
		out[i] = r
	}
	return out, len(ends)
}

// escaper makes text safe inside an XML element or a quoted attribute.
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

// esc returns s escaped for XML, with control characters (which XML 1.0
// forbids) replaced by spaces.
func esc(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
	return escaper.Replace(s)
}
