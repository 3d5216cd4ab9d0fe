package history

import "fmt"

// This file holds the mailbox's specification (chapters 2 to 4, and
// chapter 9's model.Mailbox): claim with a lease, renewal inside one's
// own lease, takeover after its end, completion under the token.

// mailboxKey is one message as the specification sees it.
type mailboxKey struct {
	State   string // NEW, CLAIMED or DONE
	Owner   string
	Token   int64
	Expires int64 // the lease's end: live while now < Expires
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

func (s mailboxKey) live(now int64) bool { return s.State == "CLAIMED" && now < s.Expires }

// Mailbox is the mailbox's specification, for claims whose lease is
// lease milliseconds long.
func Mailbox(lease int64) Spec {
	return spec[mailboxKey]{
		name:   "mailbox",
		init:   mailboxKey{State: "NEW"},
		byKey:  true,
		answer: func(s mailboxKey, op Op) (bool, mailboxKey) { return mailboxAnswer(s, op, lease) },
		effect: func(s mailboxKey, op Op) (mailboxKey, bool) { return mailboxEffect(s, op, lease) },
		show: func(s mailboxKey) string {
			return fmt.Sprintf("%s owner %q token %d until %d", s.State, s.Owner, s.Token, s.Expires)
		},
	}.build()
}

func mailboxAnswer(s mailboxKey, op Op, lease int64) (bool, mailboxKey) {
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
		case s.State == "NEW" || s.State == "CLAIMED":
			// A new generation: a token above every earlier one.
			ok := o.Result == OK && !o.Renewed && o.Token > s.Token && o.Expires == op.Now+lease
			return ok, mailboxKey{State: "CLAIMED", Owner: op.Actor, Token: o.Token, Expires: op.Now + lease}
		}
		return o.Result == Refused && o.Reason == "not_claimable", s
	case Complete:
		if s.State == "CLAIMED" && s.Owner == op.Actor && s.tokenIs(op.Token) {
			if s.Unsure && o.Result == Refused && o.Reason == "stale_token" {
				return true, s // the unanswered claim's token was another one
			}
			return o.Result == OK, mailboxKey{State: "DONE", Owner: s.Owner, Token: op.Token, Expires: s.Expires}
		}
		reason := "stale_token"
		if s.State == "DONE" {
			reason = "terminal" // a second completion, the same token included
		}
		return o.Result == Refused && o.Reason == reason, s
	case Read:
		ok := o.Result == OK && o.State == s.State && o.Holder == s.Owner && s.tokenIs(o.Token) && o.Expires == s.Expires
		s.Token, s.Unsure = o.Token, false
		return ok, s
	}
	return false, s
}

func mailboxEffect(s mailboxKey, op Op, lease int64) (mailboxKey, bool) {
	switch op.Kind {
	case Claim:
		if !s.live(op.Now) && (s.State == "NEW" || s.State == "CLAIMED") {
			return mailboxKey{State: "CLAIMED", Owner: op.Actor, Token: s.Token, Expires: op.Now + lease, Unsure: true}, true
		}
	case Complete:
		if s.State == "CLAIMED" && s.Owner == op.Actor && s.tokenIs(op.Token) {
			return mailboxKey{State: "DONE", Owner: s.Owner, Token: op.Token, Expires: s.Expires}, true
		}
	}
	return s, false
}
