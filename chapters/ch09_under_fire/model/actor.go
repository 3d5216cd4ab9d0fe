package model

// This file is the actor model: actor leases, execution attempts, the
// start and the terminal write of a run, from chapter 8. The ordinary run
// path is these steps in order; the tests put them together (they need to
// stop between any two of them).

import "github.com/fencelab/fencelab/internal/actor"

// ActorLease is one actor's lease as the model keeps it.
type ActorLease struct {
	Holder    string // the process holding it; "" once released (the row keeps its token)
	Token     Token
	ExpiresAt int64 // 0 once released
}

// Assignment is one assignment as the model keeps it.
type Assignment struct {
	Actor      string
	State      actor.State
	Attempt    Token // the current attempt's token; 0 before the first
	LeaseToken Token // the lease token the current attempt descended from
}

// AttemptLine is one line of the attempts log.
type AttemptLine struct {
	Assignment, Actor, Process string
	LeaseToken, Token          Token
	StartedAt                  int64
	Outcome                    actor.State // "" until the attempt's terminal write lands
}

// ActorAnswer is what the model says one call returns.
type ActorAnswer struct {
	NotFound  bool         // no assignment has the id
	Refused   actor.Reason // "" when accepted
	Holder    string       // for actor_lease_held: the holding process
	Token     Token        // for an accepted lease or attempt
	ExpiresAt int64        // for an accepted lease
}

// Actors is the model of one actor ledger and its token counter.
type Actors struct {
	lease  int64
	leases map[string]*ActorLease // by actor; only actors ever acquired
	asgs   map[string]*Assignment
	log    []AttemptLine
	minted Token
}

// NewActors returns an empty ledger whose leases last lease units of time.
func NewActors(lease int64) *Actors {
	return &Actors{lease: lease, leases: map[string]*ActorLease{}, asgs: map[string]*Assignment{}}
}

// Add stores assignment id for actorName, CREATED.
func (m *Actors) Add(id, actorName string) {
	m.asgs[id] = &Assignment{Actor: actorName, State: actor.Created}
}

// Lease returns actorName's lease row, and false if nobody ever acquired it.
func (m *Actors) Lease(actorName string) (ActorLease, bool) {
	l, ok := m.leases[actorName]
	if !ok {
		return ActorLease{}, false
	}
	return *l, true
}

// Assignment returns assignment id, and false if there is none.
func (m *Actors) Assignment(id string) (Assignment, bool) {
	a, ok := m.asgs[id]
	if !ok {
		return Assignment{}, false
	}
	return *a, true
}

// Attempts returns the attempts log, oldest line first.
func (m *Actors) Attempts() []AttemptLine { return m.log }

// Minted returns the newest token the model handed out, or 0.
func (m *Actors) Minted() Token { return m.minted }

// liveFor reports whether actorName's lease is held by process under tok
// and has not ended at now.
func (m *Actors) liveFor(actorName, process string, tok Token, now int64) bool {
	l, ok := m.leases[actorName]
	return ok && l.Holder == process && l.Token == tok && now < l.ExpiresAt
}

// AcquireLease is process acquiring actorName's lease at now.
//
// The rules (chapter 8): anyone wins a lease nobody holds, or one that has
// ended (expires_at <= now), with a token greater than every token before
// it, of any kind. While a lease is live every acquire is refused
// actor_lease_held, naming the holder, the holder's own included: a live
// lease is not renewed by acquiring it again.
func (m *Actors) AcquireLease(process, actorName string, now int64) ActorAnswer {
	if l, ok := m.leases[actorName]; ok && l.Holder != "" && now < l.ExpiresAt {
		return ActorAnswer{Refused: actor.ActorLeaseHeld, Holder: l.Holder}
	}
	m.minted++
	m.leases[actorName] = &ActorLease{Holder: process, Token: m.minted, ExpiresAt: now + m.lease}
	return ActorAnswer{Token: m.minted, ExpiresAt: now + m.lease}
}

// ReleaseLease is process giving back its lease tok on actorName.
//
// The rule: released if and only if the row still carries tok and process
// holds it; the clock is not asked. The row keeps the token and loses its
// holder and expiry. Anything else is refused actor_lease_lost.
func (m *Actors) ReleaseLease(process, actorName string, tok Token) ActorAnswer {
	l, ok := m.leases[actorName]
	if !ok || l.Token != tok || l.Holder != process {
		return ActorAnswer{Refused: actor.ActorLeaseLost}
	}
	l.Holder, l.ExpiresAt = "", 0
	return ActorAnswer{}
}

// AcquireAttempt is process starting an attempt on assignment id under
// its lease tok on leaseActor, at now.
//
// The rules: the assignment must be the lease's actor's, not finished,
// without a current attempt from this same lease, and the lease must be
// process's live lease on that actor, read inside the same step. The
// attempt gets a fresh token and a line in the log. A refusal names the
// first of: assignment_finished, actor_lease_lost (the lease is not this
// process's live lease on the assignment's actor), execution_attempt_held.
func (m *Actors) AcquireAttempt(process, id, leaseActor string, tok Token, now int64) ActorAnswer {
	a, ok := m.asgs[id]
	switch {
	case !ok:
		return ActorAnswer{NotFound: true}
	case a.State.Terminal():
		return ActorAnswer{Refused: actor.AssignmentFinished}
	case leaseActor != a.Actor || !m.liveFor(a.Actor, process, tok, now):
		return ActorAnswer{Refused: actor.ActorLeaseLost}
	case a.Attempt != 0 && a.LeaseToken == tok:
		return ActorAnswer{Refused: actor.ExecutionAttemptHeld}
	}
	m.minted++
	a.Attempt, a.LeaseToken = m.minted, tok
	m.log = append(m.log, AttemptLine{Assignment: id, Actor: a.Actor, Process: process, LeaseToken: tok, Token: m.minted, StartedAt: now})
	return ActorAnswer{Token: m.minted}
}

// Start is process marking assignment id RUNNING under attempt, at now.
//
// The rules: the attempt must still be the assignment's current one, the
// assignment not finished, and the lease the attempt descended from still
// process's live lease. A refusal names the first of attempt_lost,
// actor_lease_lost, assignment_finished.
func (m *Actors) Start(process, id string, attempt Token, now int64) ActorAnswer {
	if r := m.fenced(process, id, attempt, now); r != "" {
		return ActorAnswer{Refused: r}
	}
	if a := m.asgs[id]; a.State.Terminal() {
		return ActorAnswer{Refused: actor.AssignmentFinished}
	}
	m.asgs[id].State = actor.Running
	return ActorAnswer{}
}

// Finish is process writing state as assignment id's terminal state under
// attempt, at now: allowed on a RUNNING assignment under the rules of
// Start. The attempt's line in the log gets the outcome.
func (m *Actors) Finish(process, id string, attempt Token, state actor.State, now int64) ActorAnswer {
	if r := m.fenced(process, id, attempt, now); r != "" {
		return ActorAnswer{Refused: r}
	}
	a := m.asgs[id]
	if a.State != actor.Running {
		return ActorAnswer{Refused: actor.AssignmentFinished}
	}
	a.State = state
	for i := range m.log {
		if m.log[i].Token == attempt {
			m.log[i].Outcome = state
		}
	}
	return ActorAnswer{}
}

// fenced is what Start and Finish check first: attempt_lost if attempt is
// not the assignment's current one, actor_lease_lost if its lease is not
// process's live lease; "" if both hold.
func (m *Actors) fenced(process, id string, attempt Token, now int64) actor.Reason {
	a := m.asgs[id]
	switch {
	case a.Attempt != attempt:
		return actor.AttemptLost
	case !m.liveFor(a.Actor, process, a.LeaseToken, now):
		return actor.ActorLeaseLost
	}
	return ""
}
