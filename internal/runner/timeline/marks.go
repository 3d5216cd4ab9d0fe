package timeline

// This file holds what a panel draws on its lanes: spans (leases,
// pauses), events (writes, reads, kills), the committed values of a
// store, tallies (counts over an interval) and rules (a line across the
// whole panel).

// SpanKind says what a span is, and so how it is drawn.
type SpanKind int

const (
	// Lease is a lease or claim held: a bar labelled with its token.
	Lease SpanKind = iota
	// HostLease is a second, lesser lease of the same worker (a host's
	// own lease beside the session it runs): a thin bar under the first.
	HostLease
	// Pause is a worker stopped or stalled: a hatched bar.
	Pause
	// Wait is a worker holding a decision made earlier (between a read
	// and the write it decided): a dashed line.
	Wait
	// Work is a worker busy with the work itself, such as a provider
	// running: a plain band.
	Work
	// Cut is a worker cut off from the others it talks to (a network
	// partition) while it goes on running: a band with a dashed outline.
	Cut
)

// Span is something that lasts, on one lane, from From to To.
type Span struct {
	Lane     string
	Kind     SpanKind
	From, To Moment
	Label    string // drawn on or above the bar (a pause's under it): "token 3 · until 15"
	Title    string // hover text; Label when empty
}

// Outcome is what became of an event, and so the shape of its mark.
type Outcome int

const (
	// Accepted: the write was admitted and took effect (a filled disc).
	Accepted Outcome = iota
	// NoEffect: admitted, but nothing new was written: a renewal that
	// kept its token, a replay a receipt recognised (a ring).
	NoEffect
	// RolledBack: admitted, then rolled back by a failure; nothing of it
	// was committed (a slashed ring).
	RolledBack
	// Refused: the store refused the write; Event.Result says why (a
	// cross).
	Refused
	// Noted: something that decides nothing by itself, such as a read or
	// a release (a hollow diamond).
	Noted
	// Killed: the worker was killed with kill -9 (a black square).
	Killed
)

// Event is one thing a worker did at one moment, usually a call that a
// store answered.
type Event struct {
	Lane    string
	At      Moment
	Outcome Outcome
	Label   string // what was tried: "complete, token 1"
	Result  string // the answer, second line: "refused: stale_token"
	Title   string // hover text; Label and Result when empty
	// Reaches names the store lane the call went to, if the panel draws
	// one: an arrow goes from the mark to that lane.
	Reaches string
}

// bare reports whether e has no words of its own: a mark among many, such
// as a kill, which only its hover text explains.
func (e Event) bare() bool { return e.Label == "" && e.Result == "" }

// Value is a store's committed state from From until the next Value of
// the same lane (or the end of the axis).
type Value struct {
	Lane  string
	From  Moment
	Text  string // short: "mark 2 · 4 units"
	Title string // hover text; Text when empty
}

// Tally is a count of things that happened on one lane between From and
// To, drawn as a bar whose height is the count against the panel's
// largest tally.
type Tally struct {
	Lane     string
	From, To Moment
	Series   int // index into Figure.Series: 0 is drawn light, 1 dark
	Count    int
	Title    string
}

// Rule is a line across every lane of a panel at one moment, such as the
// first violation an audit found.
type Rule struct {
	At    Moment
	Label string
	Title string
}
