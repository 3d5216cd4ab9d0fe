package history

// This file holds the tests that every field of an answer counts: a
// history that is linearizable as recorded, and the same history with one
// field of its last answer changed, which must not be. A specification
// that ignores a field would accept the changed one.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
)

// perturbed is one change to the last answer of a history, and why the
// specification must refuse it.
type perturbed struct {
	name   string
	change func(o *Out)
}

// eachFieldCounts checks that history is linearizable, and that with each
// change made to its last op's answer it is not.
func eachFieldCounts(t *testing.T, s Spec, history []Op, changes []perturbed) {
	t.Helper()
	assert.Equal(t, checked(t, s, history...), Linearizable, "%s: the history as recorded must be linearizable", s.Name)
	for _, c := range changes {
		ops := append([]Op(nil), history...)
		last := &ops[len(ops)-1]
		c.change(&last.Out)
		assert.Check(t, checked(t, s, ops...) == NotLinearizable,
			"%s: the last answer with %s must have no place: %s", s.Name, c.name, describe(*last))
	}
}

func TestEveryFieldOfAMailboxAnswerCounts(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "m", 100, won(5, 100)))
	t.Run("renewal", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first,
			call(1, 20, 30, claimOp("a", "m", 105, Out{Result: OK, Token: 5, Expires: 110, Renewed: true}))},
			[]perturbed{
				{"another token", func(o *Out) { o.Token = 6 }},
				{"renewed unsaid", func(o *Out) { o.Renewed = false }},
				{"another lease end", func(o *Out) { o.Expires = 111 }},
				{"a refusal's result", func(o *Out) { o.Result = Refused }},
			})
	})
	t.Run("refusal", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first,
			call(2, 20, 30, claimOp("b", "m", 105, Out{Result: Refused, Reason: "lease_held", Holder: "a"}))},
			[]perturbed{
				{"another holder", func(o *Out) { o.Holder = "c" }},
				{"another reason", func(o *Out) { o.Reason = "not_claimable" }},
				{"an accepted result", func(o *Out) { o.Result = OK }},
			})
	})
	t.Run("takeover", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first,
			call(2, 20, 30, claimOp("b", "m", 110, won(6, 110)))},
			[]perturbed{
				{"another lease end", func(o *Out) { o.Expires = 121 }},
				{"renewed said", func(o *Out) { o.Renewed = true }},
				{"a refusal's result", func(o *Out) { o.Result = Refused }},
			})
	})
	t.Run("completion", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first,
			call(1, 20, 30, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{Result: OK}})},
			[]perturbed{
				{"a refusal", func(o *Out) { o.Result, o.Reason = Refused, "stale_token" }},
			})
	})
	t.Run("stale-completion", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first,
			call(1, 20, 30, Op{Kind: Complete, Key: "m", Actor: "a", Token: 4, Out: Out{Result: Refused, Reason: "stale_token"}})},
			[]perturbed{
				{"another reason", func(o *Out) { o.Reason = "terminal" }},
				{"an accepted result", func(o *Out) { o.Result = OK }},
			})
	})
	t.Run("claim-of-a-done-message", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first,
			call(1, 20, 30, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{Result: OK}}),
			call(2, 40, 50, claimOp("b", "m", 200, Out{Result: Refused, Reason: "not_claimable"}))},
			[]perturbed{
				{"another reason", func(o *Out) { o.Reason = "lease_held" }},
				{"an accepted result", func(o *Out) { o.Result = OK }},
			})
	})
	t.Run("read", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first,
			call(2, 20, 30, Op{Kind: Read, Key: "m", Out: Out{Result: OK, State: "CLAIMED", Holder: "a", Token: 5, Expires: 110}})},
			[]perturbed{
				{"another state", func(o *Out) { o.State = "NEW" }},
				{"another holder", func(o *Out) { o.Holder = "b" }},
				{"another token", func(o *Out) { o.Token = 4 }},
				{"another lease end", func(o *Out) { o.Expires = 109 }},
				{"a retry counted", func(o *Out) { o.Retries = 1 }},
				{"a refusal's result", func(o *Out) { o.Result = Refused }},
			})
	})
	retried := call(1, 20, 30, Op{Kind: DeadLetter, Key: "m", Actor: "a", Token: 5, Out: Out{Result: Retried}})
	t.Run("dead-letter", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first, retried}, []perturbed{
			{"the budget said spent", func(o *Out) { o.Result = DeadLettered }},
			{"a refusal", func(o *Out) { o.Result, o.Reason = Refused, "stale_token" }},
		})
	})
	t.Run("stale-dead-letter", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first,
			call(1, 20, 30, Op{Kind: DeadLetter, Key: "m", Actor: "a", Token: 4, Out: Out{Result: Refused, Reason: "stale_token"}})},
			[]perturbed{
				{"another reason", func(o *Out) { o.Reason = "terminal" }},
				{"a verdict's result", func(o *Out) { o.Result = Retried }},
			})
	})
	t.Run("read-after-a-retry", func(t *testing.T) {
		eachFieldCounts(t, Mailbox(10, 3), []Op{first, retried,
			call(2, 40, 50, Op{Kind: Read, Key: "m", Out: Out{Result: OK, State: "NEW", Retries: 1}})},
			[]perturbed{
				{"the retry uncounted", func(o *Out) { o.Retries = 0 }},
				{"the failed claim's token kept", func(o *Out) { o.Token = 5 }},
				{"the failed claim's owner kept", func(o *Out) { o.Holder = "a" }},
				{"the failed claim's lease end kept", func(o *Out) { o.Expires = 110 }},
				{"another state", func(o *Out) { o.State = "CLAIMED" }},
			})
	})
}

func TestAnUnansweredTakeoverHoldsATokenAboveTheOldOne(t *testing.T) {
	// a's lease ends at 110; a's claim at 115 gets no answer; b, at 116,
	// is told a holds m: so that claim took m, with a token above 5 that
	// nobody was told. a's completion with its old token 5 must then be
	// refused.
	ops := []Op{
		call(1, 0, 10, claimOp("a", "m", 100, won(5, 100))),
		call(1, 20, 0, claimOp("a", "m", 115, Out{})),
		call(2, 30, 40, claimOp("b", "m", 116, Out{Result: Refused, Reason: "lease_held", Holder: "a"})),
		call(3, 50, 60, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{Result: OK}}),
	}
	assert.Equal(t, checked(t, Mailbox(10, 3), ops...), NotLinearizable,
		"a completed m with its old token 5 after its unanswered claim took m with a newer one")
	ops[3].Token = 6
	assert.Equal(t, checked(t, Mailbox(10, 3), ops...), Linearizable,
		"a completed m with token 6, above the old 5: the unanswered claim may have handed it out")
	ops[3].Out = Out{Result: Refused, Reason: "stale_token"}
	assert.Equal(t, checked(t, Mailbox(10, 3), ops...), Linearizable,
		"a's completion with token 6 refused as stale: the unanswered claim may have handed out another")
}

func TestAnUnansweredTakeoverLeavesACompletionStaleNeverTerminal(t *testing.T) {
	// a's claim at 115 gets no answer: it took m with a new token, or did
	// nothing and left a's expired lease. Either way m is not done, so a
	// completion refused as terminal has no place; one refused as stale
	// has.
	ops := []Op{
		call(1, 0, 10, claimOp("a", "m", 100, won(5, 100))),
		call(1, 20, 0, claimOp("a", "m", 115, Out{})),
		call(3, 30, 40, Op{Kind: Complete, Key: "m", Actor: "a", Token: 6, Out: Out{Result: Refused, Reason: "stale_token"}}),
	}
	assert.Equal(t, checked(t, Mailbox(10, 3), ops...), Linearizable, "a completion with token 6 refused as stale")
	ops[2].Out.Reason = "terminal"
	assert.Equal(t, checked(t, Mailbox(10, 3), ops...), NotLinearizable, "a completion refused as terminal, and m never done")
}

func TestAnUnansweredApplyMayHaveTakenEffect(t *testing.T) {
	// The apply of OP-1 under fence 2 got no answer; a read after it sees
	// its units, its receipt and its mark.
	ops := []Op{
		call(1, 0, 0, applyOp(2, "OP-1", 3, Unknown)),
		call(2, 20, 30, Op{Kind: Read, Key: "gate", Out: Out{Result: OK, Mark: 2, Count: 3, Receipts: 1}}),
	}
	assert.Equal(t, checked(t, Gate(), ops...), Linearizable, "the unanswered apply may have taken effect")
	ops[1].Out = Out{Result: OK}
	assert.Equal(t, checked(t, Gate(), ops...), Linearizable, "the unanswered apply may have done nothing")
}

func TestACallThatFailedMayHaveTakenEffectOrNot(t *testing.T) {
	// The store's write of token 5 failed: its answer never came, though
	// the call returned. A read after it may see the write or not.
	failed := call(1, 0, 10, writeOp("k", 5, Out{Result: Unknown}))
	read := func(mark, writes int64) Op {
		return call(2, 20, 30, Op{Kind: Read, Key: "k", Out: Out{Result: OK, Mark: mark, Count: writes}})
	}
	assert.Equal(t, checked(t, Store(), failed, read(5, 1)), Linearizable, "the failed write may have taken effect")
	assert.Equal(t, checked(t, Store(), failed, read(0, 0)), Linearizable, "the failed write may have done nothing")
	assert.Equal(t, checked(t, Store(), failed, read(5, 2)), NotLinearizable, "one failed write cannot have taken effect twice")
}

func TestEveryFieldOfAQueueAnswerCounts(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "j", 100, won(5, 100)))
	t.Run("refusal", func(t *testing.T) {
		eachFieldCounts(t, Queue(10), []Op{first,
			call(2, 20, 30, claimOp("b", "j", 105, Out{Result: Refused, Reason: "lease_held", Holder: "a"}))},
			[]perturbed{
				{"another holder", func(o *Out) { o.Holder = "c" }},
				{"another reason", func(o *Out) { o.Reason = "finished" }},
				{"an accepted result", func(o *Out) { o.Result = OK }},
			})
	})
	t.Run("takeover", func(t *testing.T) {
		eachFieldCounts(t, Queue(10), []Op{first,
			call(2, 20, 30, claimOp("b", "j", 110, won(6, 110)))},
			[]perturbed{
				{"an old fence", func(o *Out) { o.Token = 5 }},
				{"another lease end", func(o *Out) { o.Expires = 121 }},
				{"a refusal's result", func(o *Out) { o.Result = Refused }},
			})
	})
	t.Run("finish", func(t *testing.T) {
		eachFieldCounts(t, Queue(10), []Op{first,
			call(1, 20, 30, Op{Kind: Finish, Key: "j", Actor: "a", Token: 5, Out: Out{Result: OK}})},
			[]perturbed{
				{"a refusal", func(o *Out) { o.Result, o.Reason, o.Holder = Refused, "lease_lost", "a" }},
			})
	})
	t.Run("finish-under-another-fence", func(t *testing.T) {
		eachFieldCounts(t, Queue(10), []Op{first,
			call(1, 20, 30, Op{Kind: Finish, Key: "j", Actor: "a", Token: 4, Out: Out{Result: Refused, Reason: "lease_lost", Holder: "a"}})},
			[]perturbed{
				{"another holder", func(o *Out) { o.Holder = "b" }},
				{"another reason", func(o *Out) { o.Reason = "finished" }},
				{"an accepted result", func(o *Out) { o.Result = OK }},
			})
	})
	t.Run("claim-of-a-finished-job", func(t *testing.T) {
		eachFieldCounts(t, Queue(10), []Op{first,
			call(1, 20, 30, Op{Kind: Finish, Key: "j", Actor: "a", Token: 5, Out: Out{Result: OK}}),
			call(2, 40, 50, claimOp("b", "j", 200, Out{Result: Refused, Reason: "finished"}))},
			[]perturbed{
				{"another reason", func(o *Out) { o.Reason = "lease_held" }},
				{"an accepted result", func(o *Out) { o.Result = OK }},
			})
	})
	t.Run("read", func(t *testing.T) {
		eachFieldCounts(t, Queue(10), []Op{first,
			call(2, 20, 30, Op{Kind: Read, Key: "j", Out: Out{Result: OK, State: "running", Holder: "a", Token: 5, Expires: 110}})},
			[]perturbed{
				{"another state", func(o *Out) { o.State = "queued" }},
				{"another holder", func(o *Out) { o.Holder = "b" }},
				{"another fence", func(o *Out) { o.Token = 4 }},
				{"another lease end", func(o *Out) { o.Expires = 109 }},
				{"a refusal's result", func(o *Out) { o.Result = Refused }},
			})
	})
}

func TestEveryFieldOfAGateAnswerCounts(t *testing.T) {
	first := call(1, 0, 10, applyOp(2, "OP-1", 3, "applied"))
	t.Run("read-of-the-empty-gate", func(t *testing.T) {
		eachFieldCounts(t, Gate(), []Op{
			call(2, 0, 10, Op{Kind: Read, Key: "gate", Out: Out{Result: OK}})},
			[]perturbed{
				{"a receipt", func(o *Out) { o.Receipts = 1 }},
				{"a receipt less", func(o *Out) { o.Receipts = -1 }},
			})
	})
	t.Run("read", func(t *testing.T) {
		eachFieldCounts(t, Gate(), []Op{first,
			call(2, 20, 30, Op{Kind: Read, Key: "gate", Out: Out{Result: OK, Mark: 2, Count: 3, Receipts: 1}})},
			[]perturbed{
				{"another mark", func(o *Out) { o.Mark = 1 }},
				{"other units", func(o *Out) { o.Count = 6 }},
				{"another receipt count", func(o *Out) { o.Receipts = 2 }},
				{"a refusal's result", func(o *Out) { o.Result = Refused }},
			})
	})
	t.Run("conflict", func(t *testing.T) {
		eachFieldCounts(t, Gate(), []Op{first,
			call(1, 20, 30, applyOp(3, "OP-1", 4, "conflict")),
			call(2, 40, 50, Op{Kind: Read, Key: "gate", Out: Out{Result: OK, Mark: 2, Count: 3, Receipts: 1}})},
			[]perturbed{
				{"the conflict's fence as the mark", func(o *Out) { o.Mark = 3 }},
			})
	})
	t.Run("second-operation", func(t *testing.T) {
		eachFieldCounts(t, Gate(), []Op{first,
			call(1, 20, 30, applyOp(3, "OP-2", 1, "applied")),
			call(2, 40, 50, Op{Kind: Read, Key: "gate", Out: Out{Result: OK, Mark: 3, Count: 4, Receipts: 2}})},
			[]perturbed{
				{"one receipt", func(o *Out) { o.Receipts = 1 }},
				{"the first units only", func(o *Out) { o.Count = 3 }},
			})
	})
}

func TestEveryFieldOfAStoreAnswerCounts(t *testing.T) {
	first := call(1, 0, 10, writeOp("k", 5, Out{Result: OK}))
	t.Run("stale-write", func(t *testing.T) {
		eachFieldCounts(t, Store(), []Op{first,
			call(2, 20, 30, writeOp("k", 4, Out{Result: Refused, Reason: "stale_token", Mark: 5}))},
			[]perturbed{
				{"another mark", func(o *Out) { o.Mark = 4 }},
				{"another reason", func(o *Out) { o.Reason = "terminal" }},
				{"an accepted result", func(o *Out) { o.Result = OK }},
			})
	})
	t.Run("stale-completion", func(t *testing.T) {
		eachFieldCounts(t, Store(), []Op{first,
			call(2, 20, 30, Op{Kind: Complete, Key: "k", Token: 4, Out: Out{Result: Refused, Reason: "stale_token", Mark: 5}})},
			[]perturbed{
				{"another reason", func(o *Out) { o.Reason = "terminal" }},
				{"an accepted result", func(o *Out) { o.Result = OK }},
			})
	})
	t.Run("completion-then-read", func(t *testing.T) {
		eachFieldCounts(t, Store(), []Op{first,
			call(1, 20, 30, Op{Kind: Complete, Key: "k", Token: 7, Out: Out{Result: OK}}),
			call(2, 40, 50, Op{Kind: Read, Key: "k", Out: Out{Result: OK, Mark: 7, Count: 1, Done: true}})},
			[]perturbed{
				{"not done", func(o *Out) { o.Done = false }},
				{"the old mark", func(o *Out) { o.Mark = 5 }},
				{"another count", func(o *Out) { o.Count = 2 }},
				{"a refusal's result", func(o *Out) { o.Result = Refused }},
			})
	})
	t.Run("write-after-completion", func(t *testing.T) {
		// A completed key still takes writes: a completion ends the work,
		// not the fence.
		eachFieldCounts(t, Store(), []Op{first,
			call(1, 20, 30, Op{Kind: Complete, Key: "k", Token: 5, Out: Out{Result: OK}}),
			call(1, 40, 50, writeOp("k", 6, Out{Result: OK})),
			call(2, 60, 70, Op{Kind: Read, Key: "k", Out: Out{Result: OK, Mark: 6, Count: 2, Done: true}})},
			[]perturbed{
				{"the mark before the write", func(o *Out) { o.Mark = 5 }},
			})
	})
}

func TestThePageDrawsOneRowPerProcess(t *testing.T) {
	ops := []Op{
		call(7, 0, 10, writeOp("k", 5, Out{Result: OK})),
		call(9, 20, 30, writeOp("k", 6, Out{Result: OK})),
	}
	for i := range ops {
		ops[i].Seq = 1
	}
	r := Check(Store(), ops, 0)
	page := filepath.Join(t.TempDir(), "h.html")
	assert.NilError(t, r.Visualize(page))
	data, err := os.ReadFile(page)
	assert.NilError(t, err)
	assert.Check(t, strings.Contains(string(data), `"ClientId":0`) && strings.Contains(string(data), `"ClientId":1`),
		"processes 7 and 9 must be two rows of the page, 0 and 1")
}
