package model

// This file is the mailbox model: claim with renewal and takeover,
// complete, dead-letter with its budget, written from chapters 1 to 4.

import "github.com/fencelab/fencelab/internal/mailbox"

// Message is one message as the model keeps it.
type Message struct {
	Body      string
	State     mailbox.State
	Owner     string
	Token     Token
	Expires   bool // false for a message never claimed, or claimed without a lease
	ExpiresAt int64
	Retries   int
}

// Answer is what the model says one mailbox call returns. Exactly one of
// NotFound, Refused != "" and an accepted call holds.
type Answer struct {
	NotFound bool           // no message has the id
	Refused  mailbox.Reason // "" when the call was accepted
	Holder   string         // for a claim refused lease_held: who holds the lease

	// For an accepted claim.
	Token     Token
	Renewed   bool // the owner's own live lease: same token, nothing minted
	Expires   bool
	ExpiresAt int64

	// For an accepted dead-letter.
	Verdict mailbox.Verdict
}

// Mailbox is the model of one messages table and its token counter.
type Mailbox struct {
	lease  int64 // mailbox.NoLease: claims never expire
	msgs   map[string]*Message
	minted Token // the newest token handed out
}

// NewMailbox returns an empty model whose claims last lease units of time
// (mailbox.NoLease: until completed or dead-lettered).
func NewMailbox(lease int64) *Mailbox {
	return &Mailbox{lease: lease, msgs: map[string]*Message{}}
}

// Add stores a NEW message.
func (m *Mailbox) Add(id, body string) {
	m.msgs[id] = &Message{Body: body, State: mailbox.New}
}

// Message returns message id as the model has it.
func (m *Mailbox) Message(id string) (Message, bool) {
	msg, ok := m.msgs[id]
	if !ok {
		return Message{}, false
	}
	return *msg, true
}

// Minted returns the newest token the model handed out, or 0.
func (m *Mailbox) Minted() Token { return m.minted }

// live reports whether msg is held under a lease that has not ended at
// now. A lease until 15 is held at 14 and over at 15 (chapter 3).
func live(msg *Message, now int64) bool {
	return msg.State == mailbox.Claimed && msg.Expires && now < msg.ExpiresAt
}

// Claim is owner's claim of message id at time now.
//
// The rules: the owner of a live lease gets its own token back, with the
// same expiry, and nothing is minted (chapter 3). Anyone wins a NEW
// message, or a CLAIMED one whose lease has ended, with a token greater
// than every token before it (chapters 2 and 3); that includes the same
// owner after its own lease ended. Everyone else is refused: lease_held,
// naming the holder, while a lease is live; not_claimable when the claim
// never expires or the message is DONE or DEAD (chapters 1, 2 and 4).
func (m *Mailbox) Claim(id, owner string, now int64) Answer {
	msg, ok := m.msgs[id]
	switch {
	case !ok:
		return Answer{NotFound: true}
	case live(msg, now) && msg.Owner == owner:
		return Answer{Token: msg.Token, Renewed: true, Expires: true, ExpiresAt: msg.ExpiresAt}
	case live(msg, now):
		return Answer{Refused: mailbox.LeaseHeld, Holder: msg.Owner}
	case msg.State == mailbox.New, msg.State == mailbox.Claimed && msg.Expires:
		m.minted++
		msg.State, msg.Owner, msg.Token = mailbox.Claimed, owner, m.minted
		msg.Expires, msg.ExpiresAt = m.lease != mailbox.NoLease, 0
		if msg.Expires {
			msg.ExpiresAt = now + m.lease
		}
		return Answer{Token: msg.Token, Expires: msg.Expires, ExpiresAt: msg.ExpiresAt}
	}
	return Answer{Refused: mailbox.NotClaimable}
}

// Complete is owner presenting tok to finish message id.
//
// The rule: DONE if and only if the message is CLAIMED, by owner, under
// exactly tok; no clock is asked (chapters 2 and 3). Completing changes the
// state only: owner, token and lease stay on the row as the record of the
// generation that finished it. Otherwise terminal for a DONE or DEAD
// message and stale_token for anything else (chapter 4).
func (m *Mailbox) Complete(id, owner string, tok Token) Answer {
	msg, ok := m.msgs[id]
	switch {
	case !ok:
		return Answer{NotFound: true}
	case msg.State == mailbox.Claimed && msg.Owner == owner && msg.Token == tok:
		msg.State = mailbox.Done
		return Answer{}
	}
	return Answer{Refused: refusalOf(msg)}
}

// DeadLetter is the holder of tok reporting that message id failed.
//
// The rules (chapter 4): the message must be NEW or CLAIMED and carry
// exactly tok, where the zero Token matches a message that carries none;
// the owner's name is not asked. Within the budget (fewer than
// mailbox.MaxRetries retries so far) it goes back to NEW with owner, token
// and lease cleared and one more retry counted; past it, it becomes DEAD
// with everything else kept. Refusals as for Complete.
func (m *Mailbox) DeadLetter(id string, tok Token) Answer {
	msg, ok := m.msgs[id]
	switch {
	case !ok:
		return Answer{NotFound: true}
	case (msg.State == mailbox.New || msg.State == mailbox.Claimed) && msg.Token == tok:
		if msg.Retries < mailbox.MaxRetries {
			retries := msg.Retries + 1
			*msg = Message{Body: msg.Body, State: mailbox.New, Retries: retries}
			return Answer{Verdict: mailbox.Retried}
		}
		msg.State = mailbox.Dead
		return Answer{Verdict: mailbox.DeadLettered}
	}
	return Answer{Refused: refusalOf(msg)}
}

// refusalOf says why a completion or dead-letter of msg was refused.
func refusalOf(msg *Message) mailbox.Reason {
	if msg.State == mailbox.Done || msg.State == mailbox.Dead {
		return mailbox.Terminal
	}
	return mailbox.StaleToken
}
