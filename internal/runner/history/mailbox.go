package history

import "fmt"

// This file holds the mailbox's specification (chapters 2 to 4, and
// chapter 9's model.Mailbox): claim with a lease, renewal inside one's
// own lease, takeover after its end, completion under the token, and the
// dead letter of a failed attempt: back to NEW while the retry budget
// lasts, then DEAD.

// mailboxKey is one message as the specification sees it.
type mailboxKey struct {
	State string // NEW, CLAIMED, DONE or DEAD
	Owner string
	// Token is the holder's token; in NEW, the last one the message was
	// given (0 for none), which every later claim's token exceeds. The
	// row of a NEW message holds no token, nor owner, nor lease end.
	Token   int64
	Expires int64 // the lease's end: live while now < Expires
	Retries int64 // how many failed attempts sent it back to NEW
	// Unsure: a claim that got no answer may have taken the message with
	// a token nobody was told, above Token.
	Unsure bool
}

// tokenIs reports whether t can be the holder's token.
func (s mailboxKey) tokenIs(t int64) bool {
	if s.Unsure {
		return t > s.Token
	}
	return t == s.Token
}

// rowTokenIs reports whether t can be the token the message's row holds,
// as a dead letter compares it (NULL-safe: 0 stands for no token).
func (s mailboxKey) rowTokenIs(t int64) bool {
	if s.State == "NEW" {
		return t == 0
	}
	return s.tokenIs(t)
}

func (s mailboxKey) live(now int64) bool { return s.State == "CLAIMED" && now < s.Expires }

func (s mailboxKey) terminal() bool { return s.State == "DONE" || s.State == "DEAD" }

// The verdicts of a dead letter that was not refused.
const (
	Retried      = "retried"       // back to NEW, one more retry counted
	DeadLettered = "dead_lettered" // DEAD: the retry budget was spent
)

// Mailbox is the mailbox's specification, for claims whose lease is
// lease milliseconds long and a retry budget of retries failed attempts.
func Mailbox(lease, retries int64) Spec {
	return spec[mailboxKey]{
		name:   "mailbox",
		init:   mailboxKey{State: "NEW"},
		byKey:  true,
		answer: func(s mailboxKey, op Op) (bool, mailboxKey) { return mailboxAnswer(s, op, lease, retries) },
		effect: func(s mailboxKey, op Op) (mailboxKey, bool) { return mailboxEffect(s, op, lease, retries) },
		show: func(s mailboxKey) string {
			return fmt.Sprintf("%s owner %q token %d until %d retries %d", s.State, s.Owner, s.Token, s.Expires, s.Retries)
		},
	}.build()
}

func mailboxAnswer(s mailboxKey, op Op, lease, retries int64) (bool, mailboxKey) {
	o := op.Out
	switch op.Kind {
	case Claim:
		switch {
		case s.live(op.Now) && s.Owner == op.Actor:
			// One's own live lease: the same token and the same end, and
			// nothing written.
			ok := o.Result == OK && o.Renewed && s.tokenIs(o.Token) && o.Expires == s.Expires
			s.Token, s.Unsure = o.Token, false
			return ok, s
		case s.live(op.Now):
			return o.Result == Refused && o.Reason == "lease_held" && o.Holder == s.Owner, s
		case !s.terminal():
			// A new generation: a token above every earlier one.
			ok := o.Result == OK && !o.Renewed && o.Token > s.Token && o.Expires == op.Now+lease
			return ok, mailboxKey{State: "CLAIMED", Owner: op.Actor, Token: o.Token, Expires: op.Now + lease, Retries: s.Retries}
		}
		return o.Result == Refused && o.Reason == "not_claimable", s
	case Complete:
		if s.State == "CLAIMED" && s.Owner == op.Actor && s.tokenIs(op.Token) {
			if s.Unsure && o.Result == Refused && o.Reason == "stale_token" {
				return true, s // the unanswered claim's token was another one
			}
			return o.Result == OK, completed(s, op)
		}
		return o.Result == Refused && o.Reason == refusedFor(s), s
	case DeadLetter:
		if !s.terminal() && s.rowTokenIs(op.Token) {
			if s.Unsure && o.Result == Refused && o.Reason == "stale_token" {
				return true, s
			}
			next, verdict := deadLettered(s, op, retries)
			return o.Result == verdict, next
		}
		return o.Result == Refused && o.Reason == refusedFor(s), s
	case Read:
		ok := o.Result == OK && o.State == s.State && o.Holder == s.Owner && o.Expires == s.Expires && o.Retries == s.Retries
		if s.State == "NEW" {
			return ok && o.Token == 0, s
		}
		ok = ok && s.tokenIs(o.Token)
		s.Token, s.Unsure = o.Token, false
		return ok, s
	}
	return false, s
}

// refusedFor is the reason a fenced call that does not match the row is
// refused with: terminal for a DONE or DEAD message (a repeat with the
// token that ended it included), stale_token otherwise.
func refusedFor(s mailboxKey) string {
	if s.terminal() {
		return "terminal"
	}
	return "stale_token"
}

// completed is the message op completed.
func completed(s mailboxKey, op Op) mailboxKey {
	return mailboxKey{State: "DONE", Owner: s.Owner, Token: op.Token, Expires: s.Expires, Retries: s.Retries}
}

// deadLettered is the message a failed attempt under op's token leaves,
// and the dead letter's verdict: back to NEW, its claim cleared, while
// fewer than retries attempts have failed; DEAD, its claim kept, after.
func deadLettered(s mailboxKey, op Op, retries int64) (mailboxKey, string) {
	if s.Retries < retries {
		return mailboxKey{State: "NEW", Token: max(s.Token, op.Token), Retries: s.Retries + 1}, Retried
	}
	return mailboxKey{State: "DEAD", Owner: s.Owner, Token: op.Token, Expires: s.Expires, Retries: s.Retries}, DeadLettered
}

func mailboxEffect(s mailboxKey, op Op, lease, retries int64) (mailboxKey, bool) {
	switch op.Kind {
	case Claim:
		if !s.live(op.Now) && !s.terminal() {
			return mailboxKey{State: "CLAIMED", Owner: op.Actor, Token: s.Token, Expires: op.Now + lease, Retries: s.Retries, Unsure: true}, true
		}
	case Complete:
		if s.State == "CLAIMED" && s.Owner == op.Actor && s.tokenIs(op.Token) {
			return completed(s, op), true
		}
	case DeadLetter:
		if !s.terminal() && s.rowTokenIs(op.Token) {
			next, _ := deadLettered(s, op, retries)
			return next, true
		}
	}
	return s, false
}
