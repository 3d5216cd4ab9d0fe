package model

// This file is the session model: hosts with leases of their own, session
// claims that renew or start a new incarnation, and the finish that only
// the current run of a live host may write, from chapter 7.

import "github.com/fencelab/fencelab/internal/session"

// Session is one session as the model keeps it.
type Session struct {
	Held        bool // somebody holds it; false once its run finished
	Host        string
	Incarnation int64
	ExpiresAt   int64 // the session lease; 0 when nobody holds it
}

// Completion is one finished run.
type Completion struct {
	Host        string
	Incarnation int64
	Result      string
	At          int64
}

// SessionAnswer is what the model says one claim or finish returns.
type SessionAnswer struct {
	Refused session.Reason // "" when accepted
	NoHost  bool           // the host had no name: an error, nothing written
	Current Session        // for a refusal: the session as it stood ("" host when nobody held it)

	// For an accepted claim.
	Incarnation int64
	ExpiresAt   int64
	Renewed     bool
}

// Sessions is the model of one session ledger: its sessions, the hosts'
// leases and the completions.
type Sessions struct {
	leases      session.Leases
	sessions    map[string]*Session
	hosts       map[string]int64 // host -> when its host lease ends
	completions map[string][]Completion
}

// NewSessions returns an empty ledger granting leases as leases says.
func NewSessions(leases session.Leases) *Sessions {
	return &Sessions{leases: leases, sessions: map[string]*Session{}, hosts: map[string]int64{},
		completions: map[string][]Completion{}}
}

// Session returns session id as the model has it; false if it was never
// claimed.
func (s *Sessions) Session(id string) (Session, bool) {
	cur, ok := s.sessions[id]
	if !ok {
		return Session{}, false
	}
	return *cur, true
}

// Completions returns the finished runs of session id, oldest first.
func (s *Sessions) Completions(id string) []Completion { return s.completions[id] }

// HostLease returns when host's own lease ends, and false if it never
// renewed one.
func (s *Sessions) HostLease(host string) (int64, bool) {
	at, ok := s.hosts[host]
	return at, ok
}

// RenewHost records that host is alive at now; its host lease ends one
// host lease later, whenever it ended before. A host with no name renews
// nothing (ok is false).
func (s *Sessions) RenewHost(host string, now int64) (ends int64, ok bool) {
	if host == "" {
		return 0, false
	}
	s.hosts[host] = now + s.leases.Host
	return s.hosts[host], true
}

// Claim is host's claim of session id at time now.
//
// The rules (chapter 7): the first claim creates the session with incarnation 1. The
// holder of a live session lease renews it: the same incarnation, and the
// lease runs one session lease from now. Anyone wins a session nobody
// holds, or whose lease has ended, and starts the next incarnation; that
// includes the same host after its own lease lapsed. Everyone else is
// refused session_held. A host with no name cannot claim at all.
func (s *Sessions) Claim(id, host string, now int64) SessionAnswer {
	if host == "" {
		return SessionAnswer{NoHost: true} // "" is how the ledger says nobody
	}
	cur, ok := s.sessions[id]
	if !ok {
		cur = &Session{}
		s.sessions[id] = cur
	}
	switch {
	case cur.Held && cur.Host == host && now < cur.ExpiresAt:
		cur.ExpiresAt = now + s.leases.Session
		return SessionAnswer{Incarnation: cur.Incarnation, ExpiresAt: cur.ExpiresAt, Renewed: true}
	case cur.Held && now < cur.ExpiresAt:
		return SessionAnswer{Refused: session.SessionHeld, Current: *cur}
	}
	*cur = Session{Held: true, Host: host, Incarnation: cur.Incarnation + 1, ExpiresAt: now + s.leases.Session}
	return SessionAnswer{Incarnation: cur.Incarnation, ExpiresAt: cur.ExpiresAt}
}

// Finish is host presenting incarnation to record result as the
// completion of session id's run at time now.
//
// The rule (chapter 7): allowed only when the session is held by host, under exactly
// this incarnation, with the session lease and the host's own lease both
// live at now. A finish releases the session and keeps its incarnation. A
// refusal names the first condition that fails, in the order nobody holds
// it (not_claimed), stale_incarnation, wrong_host,
// session_lease_expired, host_lease_expired, and changes nothing.
func (s *Sessions) Finish(id, host string, incarnation int64, result string, now int64) SessionAnswer {
	cur, ok := s.sessions[id]
	if !ok {
		cur = &Session{}
	}
	hostEnds, alive := s.hosts[host]
	var why session.Reason
	switch {
	case !cur.Held:
		why = session.NotClaimed
	case cur.Incarnation != incarnation:
		why = session.StaleIncarnation
	case cur.Host != host:
		why = session.WrongHost
	case now >= cur.ExpiresAt:
		why = session.SessionLeaseExpired
	case !alive || now >= hostEnds:
		why = session.HostLeaseExpired
	}
	if why != "" {
		return SessionAnswer{Refused: why, Current: *cur}
	}
	s.completions[id] = append(s.completions[id], Completion{Host: host, Incarnation: incarnation, Result: result, At: now})
	*cur = Session{Incarnation: cur.Incarnation}
	return SessionAnswer{}
}
