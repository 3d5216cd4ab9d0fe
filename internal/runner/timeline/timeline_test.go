package timeline

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// sample is a figure that uses every kind of span, outcome, value, tally
// and rule, with labels that need escaping.
func sample() Figure {
	var seq Sequence
	claim, read, takeover, callB, callA, finish := seq.At(0), seq.At(0), seq.At(5), seq.At(5), seq.At(5), seq.At(6)
	return Figure{
		Title:  "a <sample> & its \"quotes\"",
		About:  "Every kind of mark, on two panels.",
		Series: []string{"claims", "takeovers"},
		Panels: []Panel{{
			Title: "story",
			About: "A pauses; B takes over; A's late call is refused.",
			Axis:  Axis{Unit: "tick", Clock: "logical clock", From: -1, To: 7},
			Lanes: []Lane{
				{ID: "A", Label: "A", Note: "a process"},
				{ID: "B", Label: "B"},
				{ID: "dest", Label: "destination", Store: true},
			},
			Spans: []Span{
				{Lane: "A", Kind: Lease, From: claim, To: At(5), Label: "fence 1 · until 5"},
				{Lane: "A", Kind: HostLease, From: claim, To: At(3), Title: "host lease"},
				{Lane: "A", Kind: Pause, From: read, To: callA, Label: "paused"},
				{Lane: "A", Kind: Cut, From: callA, To: finish, Label: "cut off"},
				{Lane: "B", Kind: Lease, From: takeover, To: finish, Label: "fence 2 · until 10"},
				{Lane: "B", Kind: Work, From: takeover, To: finish, Label: "working"},
				{Lane: "B", Kind: Wait, From: At(1), To: takeover},
			},
			Events: []Event{
				{Lane: "A", At: claim, Outcome: Accepted, Label: "claim", Result: "fence 1"},
				{Lane: "A", At: read, Outcome: Noted, Label: "read", Result: "then pause"},
				{Lane: "B", At: takeover, Outcome: NoEffect, Label: "claim", Result: "takeover"},
				{Lane: "B", At: callB, Outcome: RolledBack, Label: "call", Result: "rolled back", Reaches: "dest"},
				{Lane: "A", At: callA, Outcome: Refused, Label: "call <fence 1>", Result: "refused: fenced & gone", Reaches: "dest"},
				{Lane: "B", At: finish, Outcome: Killed, Title: "kill -9"},
			},
			Values: []Value{
				{Lane: "dest", From: At(-1), Text: "mark 0"},
				{Lane: "dest", From: callA, Text: "mark 2 · 4 units · 1 receipt, a long text for its band"},
			},
			Tallies: []Tally{{Lane: "B", From: At(0), To: At(1), Count: 3, Title: "3 claims"}, {Lane: "B", From: At(0), To: At(1), Series: 1, Count: 1, Title: "1 takeover"}},
			Rules:   []Rule{{At: At(6), Label: "first violation", Title: "a double completion"}},
			Notes:   []string{"Final: mark 2."},
		}, {
			Title: "second panel, default axis",
			Lanes: []Lane{{ID: "w", Label: "worker"}},
			Events: []Event{
				{Lane: "w", At: At(100), Outcome: Accepted, Label: "claim"},
				{Lane: "w", At: At(101), Outcome: Refused, Label: "claim", Result: "refused: lease_held"},
			},
		}},
	}
}

func draw(t *testing.T, f Figure) string {
	t.Helper()
	var b bytes.Buffer
	assert.NilError(t, WriteSVG(&b, f))
	return b.String()
}

// element is a parsed XML element: its name, attributes and children.
type element struct {
	name     string
	attrs    map[string]string
	text     string
	children []*element
}

// parse reads doc with encoding/xml and returns its one root element; it
// fails the test if doc is not well-formed or has more than one root.
func parse(t *testing.T, doc string) *element {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	var root *element
	var stack []*element
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		assert.NilError(t, err, "the SVG is not well-formed XML")
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &element{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				assert.Assert(t, root == nil, "a second root element, <%s>", e.name)
				root = e
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, e)
			}
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tok)
			}
		}
	}
	assert.Assert(t, root != nil, "no root element")
	return root
}

func walk(e *element, f func(*element)) {
	f(e)
	for _, c := range e.children {
		walk(c, f)
	}
}

// TestPictureIsOneStandaloneSVGDocument: the output parses as XML, its
// one root is an <svg> in the SVG namespace with a size, a <title> and a
// white background, and escaped text reads back as it was given.
func TestPictureIsOneStandaloneSVGDocument(t *testing.T) {
	doc := draw(t, sample())
	root := parse(t, doc)
	assert.Equal(t, root.name, "svg")
	assert.Equal(t, root.attrs["xmlns"], "http://www.w3.org/2000/svg", "a standalone SVG names its namespace")
	assert.Check(t, root.attrs["width"] != "" && root.attrs["height"] != "" && root.attrs["viewBox"] != "", "the picture must say its size")
	assert.Equal(t, root.children[0].name, "title")
	assert.Equal(t, root.children[0].text, `a <sample> & its "quotes"`, "the title, unescaped, must read as given")
	var texts []string
	walk(root, func(e *element) {
		if e.name == "text" {
			texts = append(texts, e.text)
		}
	})
	assert.Check(t, cmp.Contains(texts, "call <fence 1>"), "a label with < and > must survive escaping")
	assert.Check(t, cmp.Contains(texts, "refused: fenced & gone"), "a label with & must survive escaping")
	assert.Check(t, strings.Contains(doc, `<rect width="960" height="`) && strings.Contains(doc, `fill="#ffffff"/>`),
		"the picture needs a white background to read on a dark page")
}

// TestEveryMarkHasHoverText: every mark, bar, value, tally, rule and lane
// is a group whose first child is a non-empty <title>, which browsers
// show on hover.
func TestEveryMarkHasHoverText(t *testing.T) {
	root := parse(t, draw(t, sample()))
	counts := map[string]int{}
	walk(root, func(e *element) {
		class := e.attrs["class"]
		if e.name != "g" || class == "" || class == "panel" || class == "legend" {
			return
		}
		counts[class]++
		assert.Assert(t, len(e.children) > 0 && e.children[0].name == "title", "a %s without a <title>", class)
		assert.Check(t, strings.TrimSpace(e.children[0].text) != "", "a %s with an empty <title>", class)
	})
	for class, want := range map[string]int{"mark": 8, "span": 7, "value": 2, "tally": 2, "rule": 1, "lane": 4} {
		assert.Check(t, cmp.Equal(counts[class], want), "groups of class %q", class)
	}
}

// TestSameFigureSameBytes: a figure is drawn the same way every time, so
// a picture can be a golden file.
func TestSameFigureSameBytes(t *testing.T) {
	first := draw(t, sample())
	for range 5 {
		assert.Equal(t, draw(t, sample()), first, "the same figure drew different bytes")
	}
}

// TestOutcomesDifferInShapeNotOnlyColour: with every colour taken out,
// the mark of each outcome still differs from every other's, so a reader
// who cannot tell the colours apart (or prints in grey) can still tell
// accepted from refused.
func TestOutcomesDifferInShapeNotOnlyColour(t *testing.T) {
	colour := regexp.MustCompile(`(fill|stroke)="[^"]*"`)
	shapes := map[string]Outcome{}
	for _, o := range []Outcome{Accepted, NoEffect, RolledBack, Refused, Noted, Killed} {
		var c canvas
		drawMark(&c, o, 50, 50)
		shape := colour.ReplaceAllString(c.b.String(), "")
		if other, dup := shapes[shape]; dup {
			t.Errorf("outcomes %d and %d have the same shape once colour is removed:\n%s", other, o, shape)
		}
		shapes[shape] = o
	}
}

// TestLegendListsOnlyWhatIsDrawn: the legend names the outcomes and bars
// a figure uses, and none it does not.
func TestLegendListsOnlyWhatIsDrawn(t *testing.T) {
	f := Figure{Title: "t", Panels: []Panel{{
		Title: "p", Lanes: []Lane{{ID: "w", Label: "w"}},
		Events: []Event{{Lane: "w", At: At(1), Outcome: Refused, Label: "claim", Result: "refused: lease_held"}},
	}}}
	root := parse(t, draw(t, f))
	var legend []string
	walk(root, func(e *element) {
		if e.attrs["class"] == "legend" {
			walk(e, func(t *element) {
				if t.name == "text" {
					legend = append(legend, t.text)
				}
			})
		}
	})
	assert.DeepEqual(t, legend, []string{"refused, and why"})
}

// TestBrokenFigureIsRefusedAndWritesNothing: a figure that names a lane
// it does not have, repeats a lane, has a span that ends before it
// begins, or has no panel is refused with an error that says which, and
// nothing is written.
func TestBrokenFigureIsRefusedAndWritesNothing(t *testing.T) {
	lane := []Lane{{ID: "w", Label: "w"}}
	for _, tc := range []struct {
		name string
		p    []Panel
		want error
	}{
		{"no-panel", nil, ErrEmpty},
		{"unknown-lane", []Panel{{Lanes: lane, Events: []Event{{Lane: "x", At: At(1)}}}}, ErrUnknownLane},
		{"unknown-store", []Panel{{Lanes: lane, Events: []Event{{Lane: "w", At: At(1), Reaches: "x"}}}}, ErrUnknownLane},
		{"duplicate-lane", []Panel{{Lanes: append(lane, lane...)}}, ErrDuplicateLane},
		{"backwards-span", []Panel{{Lanes: lane, Spans: []Span{{Lane: "w", From: At(5), To: At(4)}}}}, ErrBackwards},
		{"backwards-step", []Panel{{Lanes: lane, Spans: []Span{{Lane: "w", From: At(5).Then(1), To: At(5)}}}}, ErrBackwards},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			err := WriteSVG(&b, Figure{Title: "t", Panels: tc.p})
			assert.Check(t, errors.Is(err, tc.want), "WriteSVG = %v; want %v", err, tc.want)
			assert.Equal(t, b.Len(), 0, "a refused figure must write nothing")
		})
	}
}

// BenchmarkWriteSVG measures drawing the sample figure: the cost a
// picture adds to a run, beside the run itself.
func BenchmarkWriteSVG(b *testing.B) {
	f := sample()
	for b.Loop() {
		if err := WriteSVG(io.Discard, f); err != nil {
			b.Fatal(err)
		}
	}
}
