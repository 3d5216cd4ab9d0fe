// Package sessionlab holds the runner's "incarnation" experiment (chapter
// 7): two kiosks and one session on a logical clock, showing that the
// incarnation, not the host name, fences a stale host's callback.
package sessionlab

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/session"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// Incarnation is the runner's "incarnation" command (chapter 7).
var Incarnation = cli.Command{
	Name:    "incarnation",
	Summary: "two kiosks take sess-1 in turns: a takeover bumps the incarnation, which fences the old host's callback",
	New:     func(*flag.FlagSet) cli.Experiment { return experiment{} },
}

// The story's names and lease lengths, in logical minutes.
const (
	sessionID = "sess-1"
	kioskA    = "kiosk-a"
	kioskB    = "kiosk-b"
	ledger    = "sessions.db"
)

var leases = session.Leases{Session: 15, Host: 10}

type experiment struct{}

func (experiment) Validate() error { return nil }

type result struct {
	Command                string        `json:"command"`
	Session                string        `json:"session"`
	SessionLeaseMinutes    int64         `json:"session_lease_minutes"`
	HostLeaseMinutes       int64         `json:"host_lease_minutes"`
	Claims                 []claimEvent  `json:"claims"`
	Incarnations           []int64       `json:"incarnations"`
	Finishes               []finishEvent `json:"finishes"`
	Committed              []committed   `json:"committed"`
	Rehost                 rehost        `json:"rehost"`
	ExpiredWithoutTakeover expired       `json:"expired_without_takeover"`
}

type claimEvent struct {
	Minute             int64  `json:"minute"`
	Host               string `json:"host"`
	Result             string `json:"result"`
	Incarnation        int64  `json:"incarnation"`
	ExpiresAt          int64  `json:"expires_at"`
	HostLeaseExpiresAt int64  `json:"host_lease_expires_at"`
}

type finishEvent struct {
	Minute      int64  `json:"minute"`
	Host        string `json:"host"`
	Incarnation int64  `json:"incarnation"`
	cli.Outcome
}

type committed struct {
	Host        string `json:"host"`
	Incarnation int64  `json:"incarnation"`
	Result      string `json:"result"`
	FinishedAt  int64  `json:"finished_at"`
}

type rehost struct {
	Minute      int64       `json:"minute"`
	Host        string      `json:"host"`
	Incarnation int64       `json:"incarnation"`
	OldCallback oldCallback `json:"old_callback"`
	// For the picture only: when the new run's session lease and its
	// host's lease end.
	expiresAt, hostUntil int64
}

type oldCallback struct {
	Minute      int64 `json:"minute"`
	Incarnation int64 `json:"incarnation"`
	cli.Outcome
}

type expired struct {
	Minute                int64  `json:"minute"`
	Host                  string `json:"host"`
	Incarnation           int64  `json:"incarnation"`
	SessionLeaseExpiredAt int64  `json:"session_lease_expired_at"`
	HostLeaseExpiresAt    int64  `json:"host_lease_expires_at"`
	cli.Outcome
}

// kiosk is one host: its own connection to the ledger.
type kiosk struct {
	name  string
	store *session.Store
}

func (experiment) Run(ctx context.Context, env cli.Env) (any, error) {
	path := filepath.Join(env.Dir, ledger)
	var clk clock.Logical
	var kiosks []kiosk
	for _, name := range []string{kioskA, kioskB} {
		db, err := sqlitedb.Open(ctx, path)
		if err != nil {
			return nil, err
		}
		defer db.Close()
		if err := session.CreateSchema(ctx, db); err != nil {
			return nil, err
		}
		kiosks = append(kiosks, kiosk{name: name, store: session.Open(db, &clk, leases)})
	}
	a, b := kiosks[0], kiosks[1]
	res := result{Command: "incarnation", Session: sessionID,
		SessionLeaseMinutes: leases.Session, HostLeaseMinutes: leases.Host}

	// Minute 0: kiosk-a claims the session, then loses its network: it
	// renews nothing more. Minute 20: both of its leases have run out, and
	// kiosk-b takes the session over.
	var claims []session.Claim
	for _, step := range []struct {
		minute int64
		k      kiosk
	}{{0, a}, {20, b}} {
		clk.Set(step.minute)
		ev, c, err := claim(ctx, step.k)
		if err != nil {
			return nil, err
		}
		ev.Minute = step.minute
		res.Claims = append(res.Claims, ev)
		res.Incarnations = append(res.Incarnations, c.Incarnation)
		claims = append(claims, c)
	}

	// Minute 22: kiosk-a's callback from its first run arrives late, then
	// kiosk-b finishes its own run.
	clk.Set(22)
	for i, k := range []kiosk{a, b} {
		out, err := finish(ctx, k, claims[i], "order for table 4")
		if err != nil {
			return nil, err
		}
		res.Finishes = append(res.Finishes, finishEvent{Minute: clk.Now(), Host: k.name, Incarnation: claims[i].Incarnation, Outcome: out})
	}

	// Minute 30: operations restart the session on kiosk-a. Minute 31: the
	// old callback from kiosk-a's first run arrives once more. Same host,
	// same session: only the incarnation tells the runs apart.
	clk.Set(30)
	ev, again, err := claim(ctx, a)
	if err != nil {
		return nil, err
	}
	res.Rehost = rehost{Minute: clk.Now(), Host: kioskA, Incarnation: again.Incarnation,
		expiresAt: again.ExpiresAt, hostUntil: ev.HostLeaseExpiresAt}
	clk.Set(31)
	first := claims[0]
	out, err := finish(ctx, a, first, "order for table 4")
	if err != nil {
		return nil, err
	}
	res.Rehost.OldCallback = oldCallback{Minute: clk.Now(), Incarnation: first.Incarnation, Outcome: out}

	// Minute 50: kiosk-a is alive (it renews its host lease) but its
	// session lease ran out at minute 45, and nobody took the session
	// over. The current run still cannot finish without claiming again.
	clk.Set(50)
	hostUntil, err := a.store.RenewHost(ctx, kioskA)
	if err != nil {
		return nil, err
	}
	out, err = finish(ctx, a, again, "order for table 9")
	if err != nil {
		return nil, err
	}
	res.ExpiredWithoutTakeover = expired{Minute: clk.Now(), Host: kioskA, Incarnation: again.Incarnation,
		SessionLeaseExpiredAt: again.ExpiresAt, HostLeaseExpiresAt: hostUntil, Outcome: out}

	done, err := a.store.Completions(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	res.Committed = []committed{}
	for _, c := range done {
		res.Committed = append(res.Committed, committed{Host: c.Host, Incarnation: c.Incarnation, Result: c.Result, FinishedAt: c.FinishedAt})
	}
	return res, nil
}

// claim renews k's host lease and claims the session for it. Every claim
// in this story wins; a refusal means the experiment itself is broken.
func claim(ctx context.Context, k kiosk) (claimEvent, session.Claim, error) {
	hostUntil, err := k.store.RenewHost(ctx, k.name)
	if err != nil {
		return claimEvent{}, session.Claim{}, err
	}
	c, err := k.store.Claim(ctx, sessionID, k.name)
	if err != nil {
		return claimEvent{}, session.Claim{}, fmt.Errorf("%s claims %s: %w", k.name, sessionID, err)
	}
	word := "claimed"
	if c.Renewed {
		word = "renewed"
	}
	return claimEvent{Host: k.name, Result: word, Incarnation: c.Incarnation, ExpiresAt: c.ExpiresAt, HostLeaseExpiresAt: hostUntil}, c, nil
}

// finish presents c to FinishSession through k's connection and describes
// the answer.
func finish(ctx context.Context, k kiosk, c session.Claim, result string) (cli.Outcome, error) {
	return cli.OutcomeOf("committed", k.store.FinishSession(ctx, c, result), session.ReasonOf)
}
