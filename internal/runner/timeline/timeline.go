// Package timeline draws a runner experiment as a picture: one lane per
// worker and one per store, a time axis in the experiment's own unit,
// leases as bars labelled with their tokens, pauses, kills, every write
// as a mark that says whether it was accepted or refused and why, and the
// committed state of each store over time. WriteSVG turns a Figure into
// one standalone SVG document, with the standard library only.
//
// The model is data, not drawing: an experiment builds a Figure from the
// same run its JSON reports, and this package decides where everything
// goes. Layout is integer arithmetic over the Figure's slices in their
// order, so one Figure always gives the same bytes; an experiment keeps
// its picture byte-identical from run to run by leaving out what changes
// (pids, wall-clock instants, random ids).
//
// Time is a Moment: an instant on the axis (At, in the axis' unit) and,
// for several things that happen at the same instant, their order (Step
// 0, 1, 2, ...). The axis gives every Step a slot of its own, so four
// destination calls made at tick 5 read left to right in the order they
// arrived, while the ticks stay where the clock puts them.
//
// Readability is the package's business, not the experiments': outcomes
// differ by shape as well as colour (a filled disc for accepted, a cross
// for refused, a ring for accepted without a new effect, a slashed ring
// for rolled back), the colours are from the Okabe-Ito set, which stays
// apart for the common kinds of colour blindness and in grey, the legend
// lists only what the picture uses, and every mark carries a <title>
// that a browser shows on hover.
//
// # Adding a picture to a runner command
//
// Every runner command draws its run; a test in internal/runner fails for
// one that does not, and for one that draws two different pictures of
// two runs with the same flags (torture, a summary of a wall-clock run,
// excepted). Chapter 10's lockservice command was the last to get its
// picture (package lockservicelab, svg.go); its names are used below.
//
//  1. Give the experiment a method SVG(w io.Writer, result any) error,
//     which makes it a cli.SVGExperiment: the runner then accepts
//     --format svg and calls SVG with the value Run returned. If some
//     flags leave nothing to draw, also give it CheckFormat (a
//     cli.FormatChecker), which refuses such a run as misuse before it
//     starts. Data the picture needs and the JSON must not show goes in
//     unexported fields of the result: the JSON stays as it was.
//
//  2. In SVG, build a Figure with one Panel per case: a Lane per worker
//     ("A", "B") and a Store lane for the destination; a Lease span from
//     each holder's grant to its end, labelled with its token (the lock's
//     revision); a Pause span where the story stops a worker (SIGSTOP),
//     a Cut span where it cuts one off from the others; an Event per
//     write, Accepted or Refused with the reason in Result
//     and Reaches naming the store lane; a Killed event, on a lane for
//     the cluster, for a member killed; a Value on the store lane each
//     time its committed mark changes. Number things that happen at one
//     instant with a Sequence. Then call WriteSVG.
//
//  3. Keep it byte-identical. A wall-clock run must not put its
//     milliseconds on the axis: use the order of its handshakes as the
//     time (Axis{Unit: "step", Clock: "handshake order"}), and write the
//     wall-clock lengths that matter (a TTL) in labels, as the flags set
//     them. Leave out pids, ports, temporary paths and anything random,
//     and what a run leaves to chance (which member an election chose).
//     If a later step's numbers depend on when something earlier ends
//     on its own (a key deleted when its lease runs out), end it on
//     purpose first, as lockservice ends each case's sessions.
//
//  4. Embed it: add a row (chapter folder, picture name, command) to the
//     table in chapters/internal/pictures/pictures_test.go, run
//     `go test ./chapters/internal/pictures -update` to write
//     chapters/chNN_*/pictures/NAME.svg, look at it (rsvg-convert, or a
//     browser), and put it in the chapter text beside what it shows:
//
//     ![what it shows](pictures/NAME.svg)
//
//     *`fencelab lockservice --case pause-past-ttl --format svg`: what to see.*
//
//     The golden test then fails whenever the runner's picture drifts
//     from the committed one, or a caption names another command.
package timeline

// Figure is one picture: a heading, and one or more panels stacked under
// it, each with its own lanes and axis.
type Figure struct {
	Title string // the heading, and the document's <title>
	About string // one line under the heading; may be empty
	// Series names the tally series a panel draws (Tally.Series indexes
	// it), for the legend; empty when no panel has tallies.
	Series []string
	Panels []Panel
}

// Panel is one story on one time axis.
type Panel struct {
	Title string // the story's name, such as a case
	About string // one line under the title; may be empty
	Axis  Axis
	Lanes []Lane // top to bottom
	// What happens on the lanes. Each names its lane by Lane.ID.
	Spans   []Span
	Events  []Event
	Values  []Value
	Tallies []Tally
	Rules   []Rule
	Notes   []string // lines under the axis: a final state, counts
}

// Axis is a panel's time axis.
type Axis struct {
	// Unit names one unit of At, for the axis label: "minute", "tick",
	// "step", "ms".
	Unit string
	// Clock says what kind of time it is, after the unit: "logical
	// clock", "wall clock since the run began", "handshake order".
	Clock string
	// From and To fix the axis' range. Both zero: from the earliest
	// moment in the panel to a little past the latest.
	From, To int64
	// Exact keeps the axis linear. Otherwise marks closer than a mark's
	// width are pushed apart a little, which is right for a story told
	// minute by minute, and wrong for a long wall-clock run whose
	// proportions are the point.
	Exact bool
}

// Lane is one row of a panel: a worker, or a store whose committed state
// the panel follows.
type Lane struct {
	ID    string // what spans, events and values name; not drawn
	Label string // drawn at the left
	Note  string // a second, smaller line under the label; may be empty
	// Store lanes hold Values; worker lanes hold spans and events.
	Store bool
}

// Moment is an instant on a panel's axis.
type Moment struct {
	At   int64 // in the axis' unit
	Step int   // order among the panel's moments with the same At, from 0
}

// At returns the first moment of instant t.
func At(t int64) Moment { return Moment{At: t} }

// Then returns the moment step places after m within the same instant.
func (m Moment) Then(step int) Moment { return Moment{At: m.At, Step: m.Step + step} }

// before reports whether m comes before o on the axis.
func (m Moment) before(o Moment) bool {
	return m.At < o.At || (m.At == o.At && m.Step < o.Step)
}

// Sequence hands out moments in the order things happen: the first thing
// at an instant gets Step 0, the next one at the same instant Step 1, and
// so on. Ask it in time order.
type Sequence struct {
	last    Moment
	started bool
}

// At returns the moment of the next thing to happen at instant t.
func (s *Sequence) At(t int64) Moment {
	if s.started && s.last.At == t {
		s.last.Step++
	} else {
		s.last = Moment{At: t}
	}
	s.started = true
	return s.last
}
