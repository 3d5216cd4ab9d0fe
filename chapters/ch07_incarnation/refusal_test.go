package incarnation

// Every reason FinishSession refuses a completion, alone and together:
// which one it names, and that a refused finish changes nothing.

import (
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/session/sessiontest"
)

// refusalCase is one finish that must be refused: the ledger it meets,
// the reason it must name, and what went wrong in a learner's words if it
// names another.
type refusalCase struct {
	name string
	// run sets up a ledger and returns the kiosk that finishes and the
	// claim it presents.
	run  func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim)
	want session.Reason
	// broke says, in a learner's words, what went wrong if the finish is
	// not refused with want.
	broke string
}

// checkRefusals runs each case on a fresh ledger: the finish is refused
// with the case's reason, and sess-1's committed row and completions are
// exactly what they were before it.
func checkRefusals(t *testing.T, cases []refusalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := sessiontest.New(t, leases)
			k, c := tc.run(t, l)
			before := l.State("sess-1")
			got := k.Finish(c)
			assert.Check(t, cmp.Equal(got, tc.want),
				"%s finishing sess-1 under incarnation %d: %s", k.Name, c.Incarnation, tc.broke)
			after := l.State("sess-1")
			assert.Check(t, cmp.DeepEqual(after, before),
				"%s's finish under incarnation %d changed sess-1; a finish that must be refused changes nothing", k.Name, c.Incarnation)
		})
	}
}

// TestFinishRefusalReasons: every condition of the finish predicate is
// load-bearing, and each refusal names the one that failed. In each case
// exactly one condition fails.
func TestFinishRefusalReasons(t *testing.T) {
	t.Parallel()
	checkRefusals(t, []refusalCase{{
		name: "not_claimed",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			a := l.Kiosk("kiosk-a")
			a.Alive()
			return a, session.Claim{Session: "sess-1", Host: "kiosk-a", Incarnation: 1}
		},
		want:  session.NotClaimed,
		broke: "a session nobody ever claimed was not refused as unclaimed",
	}, {
		name: "redelivered_after_finish",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			a := l.Kiosk("kiosk-a")
			c := a.Claim("sess-1")
			if r := a.Finish(c); r != sessiontest.Committed {
				t.Fatalf("the first delivery of kiosk-a's finish was refused: %s", r)
			}
			return a, c
		},
		want:  session.NotClaimed,
		broke: "a second delivery of an already finished run's callback was not refused as unclaimed",
	}, {
		name: "stale_incarnation",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			a := l.Kiosk("kiosk-a")
			old := a.Claim("sess-1")
			l.Clock.Set(16) // kiosk-a's own lease lapsed at 15; it claims again: run 2
			a.Claim("sess-1")
			l.Clock.Set(17)
			return a, old
		},
		want:  session.StaleIncarnation,
		broke: "the callback of kiosk-a's run 1 was not refused as stale while kiosk-a runs sess-1 as run 2 (same host, live leases)",
	}, {
		name: "wrong_host",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			held := l.Kiosk("kiosk-a").Claim("sess-1")
			b := l.Kiosk("kiosk-b")
			b.Alive()
			l.Clock.Set(5) // kiosk-b presents kiosk-a's current incarnation as its own
			return b, session.Claim{Session: "sess-1", Host: "kiosk-b", Incarnation: held.Incarnation}
		},
		want:  session.WrongHost,
		broke: "a host that does not hold the session was not refused for presenting another host's incarnation",
	}, {
		name: "session_lease_expired",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			a := l.Kiosk("kiosk-a")
			c := a.Claim("sess-1")
			l.Clock.Set(12)
			a.Alive()       // the host lease now runs to 22
			l.Clock.Set(16) // the session lease ran out at 15; nobody took over
			return a, c
		},
		want:  session.SessionLeaseExpired,
		broke: "a run whose session lease ran out at minute 15 was not refused for it",
	}, {
		name: "host_lease_expired",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			a := l.Kiosk("kiosk-a")
			c := a.Claim("sess-1")
			l.Clock.Set(12) // the host lease ran out at 10; the session lease runs to 15
			l.Kiosk("kiosk-b").Alive()
			return a, c
		},
		want:  session.HostLeaseExpired,
		broke: "a host whose own lease ran out at minute 10 was not refused for it (while another host is alive)",
	}, {
		name: "host_never_renewed",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			a := l.Kiosk("kiosk-a")
			c, _ := a.TryClaim("sess-1") // a claim, but never a host lease
			l.Clock.Set(5)
			return a, c
		},
		want:  session.HostLeaseExpired,
		broke: "a host that never renewed a host lease was not refused for it",
	}, {
		// The clock's unit and origin are the caller's: only the order of
		// minutes matters. A host with no host lease has no lease at all,
		// not one that ended at minute 0.
		name: "host_never_renewed_before_minute_0",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(-30)
			a := l.Kiosk("kiosk-a")
			c, _ := a.TryClaim("sess-1")
			l.Clock.Set(-25)
			return a, c
		},
		want:  session.HostLeaseExpired,
		broke: "a host that never renewed a host lease, on a clock that reads minute -25, was not refused for it",
	}})
}

// TestFinishRefusalPrecedence: when several conditions fail at once, the
// refusal names the first in the order not_claimed, stale_incarnation,
// wrong_host, session_lease_expired, host_lease_expired. The reasons that
// say "this run is over for good" come before the ones that say "this run
// ran out of time", so a superseded run's callback is never told that only
// a lease stands in its way.
func TestFinishRefusalPrecedence(t *testing.T) {
	t.Parallel()
	checkRefusals(t, []refusalCase{{
		name: "not_claimed_first",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			a := l.Kiosk("kiosk-a")
			if r := a.Finish(a.Claim("sess-1")); r != sessiontest.Committed {
				t.Fatalf("kiosk-a's finish of run 1 was refused: %s", r)
			}
			l.Clock.Set(40) // kiosk-b never held sess-1 and never renewed a host lease
			return l.Kiosk("kiosk-b"), session.Claim{Session: "sess-1", Host: "kiosk-b", Incarnation: 7}
		},
		want:  session.NotClaimed,
		broke: "a finish of a released session, under a wrong incarnation, by the wrong host with no leases, was not refused as unclaimed first",
	}, {
		name: "stale_incarnation_before_host_and_leases",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			a := l.Kiosk("kiosk-a")
			old := a.Claim("sess-1")
			l.Clock.Set(20)
			l.Kiosk("kiosk-b").Claim("sess-1") // run 2, lease to 35
			l.Clock.Set(40)                    // every lease has run out
			return a, old
		},
		want:  session.StaleIncarnation,
		broke: "kiosk-a's callback of run 1, superseded by kiosk-b's run 2, was not refused as stale first (leases had also run out)",
	}, {
		name: "wrong_host_before_leases",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			held := l.Kiosk("kiosk-a").Claim("sess-1")
			l.Kiosk("kiosk-b").Alive()
			l.Clock.Set(30) // both leases of kiosk-a and kiosk-b's host lease ran out
			return l.Kiosk("kiosk-b"), session.Claim{Session: "sess-1", Host: "kiosk-b", Incarnation: held.Incarnation}
		},
		want:  session.WrongHost,
		broke: "kiosk-b presenting kiosk-a's incarnation was not refused as the wrong host first (leases had also run out)",
	}, {
		name: "session_lease_before_host_lease",
		run: func(t *testing.T, l *sessiontest.Ledger) (*sessiontest.Kiosk, session.Claim) {
			l.Clock.Set(0)
			a := l.Kiosk("kiosk-a")
			c := a.Claim("sess-1")
			l.Clock.Set(30) // the session lease ran out at 15, the host lease at 10
			return a, c
		},
		want:  session.SessionLeaseExpired,
		broke: "a run whose session and host leases both ran out was not refused for its session lease first",
	}})
}
