package history

// Each test here is a small history drawn by hand, the kind chapter 9's
// text draws: calls of two or three processes on a time line, and the
// verdict a checker must reach on them.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// call is one op of a drawn history: process p calls at from and gets
// its answer at to (0: never).
func call(p int, from, to int64, op Op) Op {
	op.Process, op.Call, op.Return = p, from, to
	if to == 0 && op.Out.Result == "" {
		op.Out.Result = Unknown
	}
	return op
}

func checked(t *testing.T, s Spec, ops ...Op) Verdict {
	t.Helper()
	for i := range ops {
		ops[i].Seq = i + 1
	}
	return Check(s, ops, 10*time.Second).Verdict
}

// The mailbox with 10 ms leases.

func claimOp(actor, key string, now int64, out Out) Op {
	return Op{Kind: Claim, Key: key, Actor: actor, Now: now, Out: out}
}

func won(token, now int64) Out { return Out{Result: OK, Token: token, Expires: now + 10} }

func TestOverlappingClaimsWithOneWinnerAreLinearizable(t *testing.T) {
	// a and b claim m at once; a wins with token 1, b is told a holds it.
	v := checked(t, Mailbox(10, 3),
		call(1, 0, 10, claimOp("a", "m", 100, won(1, 100))),
		call(2, 5, 15, claimOp("b", "m", 100, Out{Result: Refused, Reason: "lease_held", Holder: "a"})),
	)
	assert.Equal(t, v, Linearizable, "two overlapping claims, one winner and one told who holds it: there is an order (a first)")
}

func TestTwoWinnersOfOneLiveLeaseAreNotLinearizable(t *testing.T) {
	v := checked(t, Mailbox(10, 3),
		call(1, 0, 10, claimOp("a", "m", 100, won(1, 100))),
		call(2, 5, 15, claimOp("b", "m", 101, won(2, 101))),
	)
	assert.Equal(t, v, NotLinearizable, "a and b both won m inside a's lease: no order of the two gives both answers")
}

func TestARefusalNamingAHolderThatNeverClaimedIsNotLinearizable(t *testing.T) {
	v := checked(t, Mailbox(10, 3),
		call(1, 0, 10, claimOp("b", "m", 100, Out{Result: Refused, Reason: "lease_held", Holder: "a"})),
	)
	assert.Equal(t, v, NotLinearizable, "b was told a holds m, and a never claimed it")
}

func TestAClaimThatEndedBeforeAnotherBeganComesFirst(t *testing.T) {
	// a's claim returned before b's began, so it is first in any order:
	// b cannot have won m first (real-time order).
	v := checked(t, Mailbox(10, 3),
		call(1, 0, 10, claimOp("a", "m", 100, Out{Result: Refused, Reason: "lease_held", Holder: "b"})),
		call(2, 20, 30, claimOp("b", "m", 100, won(1, 100))),
	)
	assert.Equal(t, v, NotLinearizable, "a was refused for b's lease before b's claim had begun")
}

func TestTakeoverAfterTheLeaseEndNeedsAGreaterToken(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "m", 100, won(5, 100)))
	v := checked(t, Mailbox(10, 3), first, call(2, 20, 30, claimOp("b", "m", 110, won(6, 110))))
	assert.Equal(t, v, Linearizable, "b takes m at a's lease end, minute 110, with a greater token")
	v = checked(t, Mailbox(10, 3), first, call(2, 20, 30, claimOp("b", "m", 109, won(6, 109))))
	assert.Equal(t, v, NotLinearizable, "b won m at 109, one before a's lease ends at 110")
	v = checked(t, Mailbox(10, 3), first, call(2, 20, 30, claimOp("b", "m", 110, won(5, 110))))
	assert.Equal(t, v, NotLinearizable, "b's takeover handed out a's token 5 again: a new generation needs a greater one")
}

func TestRenewalInsideOnesOwnLeaseKeepsTokenAndEnd(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "m", 100, won(5, 100)))
	v := checked(t, Mailbox(10, 3), first, call(1, 20, 30, claimOp("a", "m", 105, Out{Result: OK, Token: 5, Expires: 110, Renewed: true})))
	assert.Equal(t, v, Linearizable, "a claims m again inside its lease: its token and its lease end back")
	v = checked(t, Mailbox(10, 3), first, call(1, 20, 30, claimOp("a", "m", 105, Out{Result: OK, Token: 5, Expires: 115, Renewed: true})))
	assert.Equal(t, v, NotLinearizable, "a renewal moved the lease end: a renewal writes nothing")
	v = checked(t, Mailbox(10, 3), first, call(1, 20, 30, claimOp("a", "m", 105, won(6, 105))))
	assert.Equal(t, v, NotLinearizable, "a got a new token inside its own live lease: that is a renewal, same token")
}

func TestCompletingTwiceWithTheSameTokenIsRefusedTerminal(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "m", 100, won(5, 100)))
	done := call(1, 20, 30, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{Result: OK}})
	v := checked(t, Mailbox(10, 3), first, done, call(1, 40, 50, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{Result: Refused, Reason: "terminal"}}))
	assert.Equal(t, v, Linearizable, "the second completion with the token that completed m is refused terminal")
	v = checked(t, Mailbox(10, 3), first, done, call(1, 40, 50, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{Result: OK}}))
	assert.Equal(t, v, NotLinearizable, "m was completed twice with one token: a repeat must be refused")
}

// deadLetterOp is a's dead letter of m under token, answered with out.
func deadLetterOp(token int64, result, reason string) Op {
	return Op{Kind: DeadLetter, Key: "m", Actor: "a", Token: token, Out: Out{Result: result, Reason: reason}}
}

func TestADeadLetterSendsTheMessageBackUntilItsRetriesAreSpent(t *testing.T) {
	// A budget of one retry: a's failed attempt sends m back to NEW, b's
	// failed attempt after it parks m in DEAD.
	ops := func(second string) []Op {
		return []Op{
			call(1, 0, 10, claimOp("a", "m", 100, won(5, 100))),
			call(1, 20, 30, deadLetterOp(5, Retried, "")),
			call(2, 40, 50, claimOp("b", "m", 200, won(6, 200))),
			call(2, 60, 70, Op{Kind: DeadLetter, Key: "m", Actor: "b", Token: 6, Out: Out{Result: second}}),
		}
	}
	assert.Equal(t, checked(t, Mailbox(10, 1), ops(DeadLettered)...), Linearizable,
		"the second failure, with one retry spent of one, parks m in DEAD")
	assert.Equal(t, checked(t, Mailbox(10, 1), ops(Retried)...), NotLinearizable,
		"m went back to NEW a second time with a budget of one retry")
	assert.Equal(t, checked(t, Mailbox(10, 2), ops(Retried)...), Linearizable,
		"with a budget of two retries the second failure sends m back again")
	dead := append(ops(DeadLettered),
		call(3, 80, 90, readOp("m", Out{State: "DEAD", Holder: "b", Token: 6, Expires: 210, Retries: 1})),
		call(3, 100, 110, claimOp("c", "m", 300, Out{Result: Refused, Reason: "not_claimable"})))
	assert.Equal(t, checked(t, Mailbox(10, 1), dead...), Linearizable,
		"a DEAD message keeps its last claim and its retries, and no claim takes it")
}

func TestADeadLetterRepeatedWithTheSameTokenIsRefused(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "m", 100, won(5, 100)))
	retried := call(1, 20, 30, deadLetterOp(5, Retried, ""))
	v := checked(t, Mailbox(10, 3), first, retried, call(1, 40, 50, deadLetterOp(5, Refused, "stale_token")))
	assert.Equal(t, v, Linearizable, "the repeat finds m NEW, its claim cleared: the token is stale")
	v = checked(t, Mailbox(10, 3), first, retried, call(1, 40, 50, deadLetterOp(5, Retried, "")))
	assert.Equal(t, v, NotLinearizable, "one failed attempt counted twice: a repeat must be refused")
	parked := call(1, 20, 30, deadLetterOp(5, DeadLettered, ""))
	v = checked(t, Mailbox(10, 0), first, parked, call(1, 40, 50, deadLetterOp(5, Refused, "terminal")))
	assert.Equal(t, v, Linearizable, "the repeat finds m DEAD: refused terminal")
	v = checked(t, Mailbox(10, 0), first, parked, call(1, 40, 50, deadLetterOp(5, Refused, "stale_token")))
	assert.Equal(t, v, NotLinearizable, "a DEAD message's refusal says terminal, not stale")
}

func TestAClaimAfterARetryNeedsATokenAboveTheFailedOne(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "m", 100, won(5, 100)))
	retried := call(1, 20, 30, deadLetterOp(5, Retried, ""))
	v := checked(t, Mailbox(10, 3), first, retried, call(2, 40, 50, claimOp("b", "m", 101, won(5, 101))))
	assert.Equal(t, v, NotLinearizable, "b got the failed attempt's token 5 again")
	v = checked(t, Mailbox(10, 3), first, retried, call(2, 40, 50, claimOp("b", "m", 101, won(6, 101))))
	assert.Equal(t, v, Linearizable, "m back in NEW is claimable at once, inside the old lease, with a greater token")
	v = checked(t, Mailbox(10, 3), first, retried, call(1, 40, 50, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{Result: OK}}))
	assert.Equal(t, v, NotLinearizable, "a completed m after its failed attempt sent m back")
}

func TestADeadLetterWithNoTokenMatchesOnlyAMessageThatHoldsNone(t *testing.T) {
	// The row's token is compared NULL-safely: a NEW message holds none,
	// so a dead letter presenting none (0) matches it, and any token does
	// not.
	v := checked(t, Mailbox(10, 3), call(1, 0, 10, deadLetterOp(0, Retried, "")))
	assert.Equal(t, v, Linearizable, "no token presented, none held: the failure is counted")
	v = checked(t, Mailbox(10, 3), call(1, 0, 10, deadLetterOp(1, Retried, "")))
	assert.Equal(t, v, NotLinearizable, "token 1 presented for a message that holds none")
	v = checked(t, Mailbox(10, 3), call(1, 0, 10, deadLetterOp(1, Refused, "stale_token")))
	assert.Equal(t, v, Linearizable, "token 1 presented for a message that holds none is stale")
	// The retry with no token keeps the floor: a later claim still needs
	// a token above the failed claim's.
	v = checked(t, Mailbox(10, 3),
		call(1, 0, 10, claimOp("a", "m", 100, won(5, 100))),
		call(1, 20, 30, deadLetterOp(5, Retried, "")),
		call(1, 40, 50, deadLetterOp(0, Retried, "")),
		call(2, 60, 70, claimOp("b", "m", 200, won(3, 200))))
	assert.Equal(t, v, NotLinearizable, "after two retries, b got token 3, below the failed claim's 5")
}

func TestADeadLetterAfterAnUnansweredTakeoverMayCarryItsToken(t *testing.T) {
	// b's takeover at 110 got no answer, so it may hold m with a token
	// above 5 that nobody was told. b's dead letter with token 7 shows
	// which.
	prefix := func(dl Op) []Op {
		return []Op{
			call(1, 0, 10, claimOp("a", "m", 100, won(5, 100))),
			call(2, 20, 0, claimOp("b", "m", 110, Out{})),
			call(2, 30, 40, dl),
		}
	}
	b := func(result, reason string) Op {
		return Op{Kind: DeadLetter, Key: "m", Actor: "b", Token: 7, Out: Out{Result: result, Reason: reason}}
	}
	v := checked(t, Mailbox(10, 3), prefix(b(Retried, ""))...)
	assert.Equal(t, v, Linearizable, "b's takeover took token 7, and its failure is counted")
	v = checked(t, Mailbox(10, 3), prefix(b(Refused, "stale_token"))...)
	assert.Equal(t, v, Linearizable, "b's takeover took another token, or none: 7 is stale")
	v = checked(t, Mailbox(10, 3), prefix(b(Refused, "terminal"))...)
	assert.Equal(t, v, NotLinearizable, "nothing ended m: a refusal must say stale, not terminal")
	v = checked(t, Mailbox(10, 3), append(prefix(b(Retried, "stale_token")),
		call(3, 50, 60, readOp("m", Out{State: "CLAIMED", Holder: "b", Token: 7, Expires: 120})))...)
	assert.Equal(t, v, NotLinearizable, "a retried verdict sent m back to NEW, whatever reason came with it")
	v = checked(t, Mailbox(10, 3), append(prefix(b(Retried, "")),
		call(3, 50, 60, claimOp("c", "m", 200, won(6, 200))))...)
	assert.Equal(t, v, NotLinearizable, "c got token 6 after b's failed attempt under token 7")
	// Without the unanswered takeover, a's own token is the row's: a
	// refusal of it as stale has no place.
	v = checked(t, Mailbox(10, 3), call(1, 0, 10, claimOp("a", "m", 100, won(5, 100))), call(1, 20, 30, deadLetterOp(5, Refused, "stale_token")))
	assert.Equal(t, v, NotLinearizable, "a's dead letter under its own live token refused as stale")
}

func TestACompletionUnderAnotherTokenIsStale(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "m", 100, won(5, 100)))
	v := checked(t, Mailbox(10, 3), first, call(1, 20, 30, Op{Kind: Complete, Key: "m", Actor: "a", Token: 4, Out: Out{Result: OK}}))
	assert.Equal(t, v, NotLinearizable, "a completed m with token 4 while its claim holds 5")
	v = checked(t, Mailbox(10, 3), first, call(2, 20, 30, Op{Kind: Complete, Key: "m", Actor: "b", Token: 5, Out: Out{Result: OK}}))
	assert.Equal(t, v, NotLinearizable, "b completed m with a's token: the owner is part of the check")
}

func TestAClaimWithNoAnswerMayHaveTakenEffectOrNot(t *testing.T) {
	// a's process died during its claim: b may find m taken by a (a's
	// lease) or not, and either answer is possible.
	lost := call(1, 0, 0, claimOp("a", "m", 100, Out{}))
	v := checked(t, Mailbox(10, 3), lost, call(2, 20, 30, claimOp("b", "m", 101, Out{Result: Refused, Reason: "lease_held", Holder: "a"})))
	assert.Equal(t, v, Linearizable, "a claim that got no answer may have taken m")
	v = checked(t, Mailbox(10, 3), lost, call(2, 20, 30, claimOp("b", "m", 101, won(3, 101))))
	assert.Equal(t, v, Linearizable, "a claim that got no answer may have done nothing")
	v = checked(t, Mailbox(10, 3), lost, call(2, 20, 30, claimOp("b", "m", 101, Out{Result: Refused, Reason: "lease_held", Holder: "c"})))
	assert.Equal(t, v, NotLinearizable, "b was told c holds m, and c never claimed it")
}

func TestAReadSeesTheLatestCompletedState(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "m", 100, won(5, 100)))
	done := call(1, 20, 30, Op{Kind: Complete, Key: "m", Actor: "a", Token: 5, Out: Out{Result: OK}})
	v := checked(t, Mailbox(10, 3), first, done, call(2, 40, 50, Op{Kind: Read, Key: "m", Out: Out{Result: OK, State: "CLAIMED", Holder: "a", Token: 5, Expires: 110}}))
	assert.Equal(t, v, NotLinearizable, "a read after the completion returned still sees m claimed")
}

// The queue.

func TestTheQueueRefusesEvenItsHolderInsideTheLease(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "j", 100, won(5, 100)))
	v := checked(t, Queue(10), first, call(1, 20, 30, claimOp("a", "j", 105, Out{Result: Refused, Reason: "lease_held", Holder: "a"})))
	assert.Equal(t, v, Linearizable, "the queue has no renewal: its holder is refused too")
	v = checked(t, Queue(10), first, call(1, 20, 30, claimOp("a", "j", 105, Out{Result: OK, Token: 5, Expires: 110})))
	assert.Equal(t, v, NotLinearizable, "the queue renewed a lease: it has no renewal")
}

func TestFinishingTwiceWithTheSameFenceIsRefused(t *testing.T) {
	first := call(1, 0, 10, claimOp("a", "j", 100, won(5, 100)))
	fin := call(1, 20, 30, Op{Kind: Finish, Key: "j", Actor: "a", Token: 5, Out: Out{Result: OK}})
	v := checked(t, Queue(10), first, fin, call(1, 40, 50, Op{Kind: Finish, Key: "j", Actor: "a", Token: 5, Out: Out{Result: Refused, Reason: "lease_lost", Holder: "a"}}))
	assert.Equal(t, v, Linearizable, "the second finish with the fence that finished j is refused")
	v = checked(t, Queue(10), first, fin, call(1, 40, 50, Op{Kind: Finish, Key: "j", Actor: "a", Token: 5, Out: Out{Result: OK}}))
	assert.Equal(t, v, NotLinearizable, "j was finished twice with one fence")
	v = checked(t, Queue(10), first, fin, call(2, 40, 50, claimOp("b", "j", 200, won(6, 200))))
	assert.Equal(t, v, NotLinearizable, "a finished job was claimed again")
}

// The gate.

func applyOp(fence int64, operation string, units int64, result string) Op {
	return Op{Kind: Apply, Key: operation, Token: fence, Units: units, Out: Out{Result: result}}
}

func TestAFenceBelowTheMarkIsFencedWhateverTheOrderOfCalls(t *testing.T) {
	v := checked(t, Gate(),
		call(1, 0, 10, applyOp(2, "OP-1", 1, "applied")),
		call(2, 20, 30, applyOp(1, "OP-2", 1, "fenced")),
	)
	assert.Equal(t, v, Linearizable, "fence 1 after fence 2 was applied: fenced")
	v = checked(t, Gate(),
		call(1, 0, 10, applyOp(2, "OP-1", 1, "applied")),
		call(2, 20, 30, applyOp(1, "OP-2", 1, "applied")),
	)
	assert.Equal(t, v, NotLinearizable, "fence 1 was applied after fence 2 had returned: the mark went back")
	v = checked(t, Gate(),
		call(1, 0, 30, applyOp(2, "OP-1", 1, "applied")),
		call(2, 10, 20, applyOp(1, "OP-2", 1, "applied")),
	)
	assert.Equal(t, v, Linearizable, "two overlapping applies, fence 1 then 2: that order gives both answers")
}

func TestTheMarkAReadSeesNeverGoesBack(t *testing.T) {
	v := checked(t, Gate(),
		call(1, 0, 30, applyOp(2, "OP-1", 1, "applied")),
		call(2, 10, 20, applyOp(1, "OP-2", 1, "applied")),
		call(3, 40, 50, Op{Kind: Read, Key: "gate", Out: Out{Result: OK, Mark: 1, Count: 2, Receipts: 2}}),
	)
	assert.Equal(t, v, NotLinearizable, "after fences 1 and 2 were applied, a read sees mark 1")
}

func TestARepeatWithTheSameFenceIsReplayedWithoutASecondEffect(t *testing.T) {
	first := call(1, 0, 10, applyOp(2, "OP-1", 3, "applied"))
	read := func(units int64) Op {
		return call(2, 40, 50, Op{Kind: Read, Key: "gate", Out: Out{Result: OK, Mark: 2, Count: units, Receipts: 1}})
	}
	v := checked(t, Gate(), first, call(1, 20, 30, applyOp(2, "OP-1", 3, "replayed")), read(3))
	assert.Equal(t, v, Linearizable, "the same operation with the same fence is replayed, and the units stay 3")
	v = checked(t, Gate(), first, call(1, 20, 30, applyOp(2, "OP-1", 3, "applied")), read(6))
	assert.Equal(t, v, NotLinearizable, "the same operation and fence applied twice: a second effect")
	v = checked(t, Gate(), first, call(1, 20, 30, applyOp(2, "OP-1", 4, "replayed")))
	assert.Equal(t, v, NotLinearizable, "a receipt for 3 units replayed a request for 4: that is a conflict")
}

// The fenced store.

func writeOp(key string, token int64, out Out) Op {
	return Op{Kind: Write, Key: key, Actor: "w", Token: token, Out: out}
}

func TestAStaleWriteIsRefusedWithTheMarkItWasJudgedBy(t *testing.T) {
	first := call(1, 0, 10, writeOp("k", 5, Out{Result: OK}))
	v := checked(t, Store(), first, call(2, 20, 30, writeOp("k", 4, Out{Result: Refused, Reason: "stale_token", Mark: 5})))
	assert.Equal(t, v, Linearizable, "token 4 after 5 was accepted: refused, mark 5")
	v = checked(t, Store(), first, call(2, 20, 30, writeOp("k", 4, Out{Result: OK})))
	assert.Equal(t, v, NotLinearizable, "token 4 accepted after token 5 had returned")
	v = checked(t, Store(), first, call(2, 20, 30, writeOp("other", 4, Out{Result: OK})))
	assert.Equal(t, v, Linearizable, "each key has its own mark: token 4 on another key is fine")
}

func TestWritingTwiceWithTheSameTokenIsTwoEffects(t *testing.T) {
	first := call(1, 0, 10, writeOp("k", 5, Out{Result: OK}))
	again := call(1, 20, 30, writeOp("k", 5, Out{Result: OK}))
	read := func(writes int64) Op {
		return call(2, 40, 50, Op{Kind: Read, Key: "k", Out: Out{Result: OK, Mark: 5, Count: writes}})
	}
	assert.Equal(t, checked(t, Store(), first, again, read(2)), Linearizable,
		"the store keeps no receipt: the same token twice is two effects, by contract")
	assert.Equal(t, checked(t, Store(), first, again, read(1)), NotLinearizable,
		"two accepted writes, and a read counts one")
}

func TestCompletingAKeyTwiceIsRefusedTerminal(t *testing.T) {
	first := call(1, 0, 10, Op{Kind: Complete, Key: "k", Token: 5, Out: Out{Result: OK}})
	v := checked(t, Store(), first, call(1, 20, 30, Op{Kind: Complete, Key: "k", Token: 5, Out: Out{Result: Refused, Reason: "terminal", Mark: 5}}))
	assert.Equal(t, v, Linearizable, "the second completion of k, same token, is refused terminal")
	v = checked(t, Store(), first, call(1, 20, 30, Op{Kind: Complete, Key: "k", Token: 5, Out: Out{Result: OK}}))
	assert.Equal(t, v, NotLinearizable, "k completed twice")
}

func claimMarkOp(token int64, out Out) Op {
	return Op{Kind: ClaimMark, Key: "k", Actor: "w", Token: token, Out: out}
}

func readMark(p int, from, to, mark, writes int64) Op {
	return call(p, from, to, Op{Kind: Read, Key: "k", Out: Out{Result: OK, Mark: mark, Count: writes}})
}

func TestAClaimOfTheMarkFencesEarlierTokensBeforeAnyWrite(t *testing.T) {
	claimed := call(1, 0, 10, claimMarkOp(5, Out{Result: OK}))
	stale := Out{Result: Refused, Reason: "stale_token", Mark: 5}
	assert.Equal(t, checked(t, Store(), claimed, call(2, 20, 30, writeOp("k", 4, stale))), Linearizable,
		"mark claimed at 5, no write yet: token 4's write is refused stale, mark 5")
	assert.Equal(t, checked(t, Store(), claimed, call(2, 20, 30, writeOp("k", 4, Out{Result: OK}))), NotLinearizable,
		"token 4's write accepted after the mark was claimed at 5: the late write the claim exists to stop")
	assert.Equal(t, checked(t, Store(), claimed, call(2, 20, 30, writeOp("k", 5, Out{Result: OK})), readMark(3, 40, 50, 5, 1)), Linearizable,
		"the claimer's own write at 5 is accepted, one effect")
	assert.Equal(t, checked(t, Store(), claimed, readMark(2, 20, 30, 5, 0)), Linearizable,
		"a claim of the mark raises the mark and writes nothing")
	assert.Equal(t, checked(t, Store(), claimed, readMark(2, 20, 30, 5, 1)), NotLinearizable,
		"a claim of the mark is no effect: a read counting one write has no place")
	assert.Equal(t, checked(t, Store(), claimed, readMark(2, 20, 30, 0, 0)), NotLinearizable,
		"after the claim at 5 returned, a read of mark 0 has no place")
}

func TestAClaimOfTheMarkBelowItIsRefusedWithTheMark(t *testing.T) {
	first := call(1, 0, 10, claimMarkOp(5, Out{Result: OK}))
	v := checked(t, Store(), first, call(2, 20, 30, claimMarkOp(4, Out{Result: Refused, Reason: "stale_token", Mark: 5})))
	assert.Equal(t, v, Linearizable, "a claim at 4 after 5 is refused stale, mark 5")
	v = checked(t, Store(), first, call(2, 20, 30, claimMarkOp(4, Out{Result: OK})))
	assert.Equal(t, v, NotLinearizable, "a claim at 4 accepted after the mark was claimed at 5")
	v = checked(t, Store(), first, call(2, 20, 30, claimMarkOp(4, Out{Result: Refused, Reason: "stale_token", Mark: 4})))
	assert.Equal(t, v, NotLinearizable, "a refusal must name the mark it was judged by, 5, not 4")
	v = checked(t, Store(), first, call(2, 20, 30, claimMarkOp(5, Out{Result: OK})))
	assert.Equal(t, v, Linearizable, "the holder claiming its own mark again is accepted")
	v = checked(t, Store(), first, call(2, 20, 30, claimMarkOp(5, Out{Result: Refused, Reason: "stale_token", Mark: 5})))
	assert.Equal(t, v, NotLinearizable, "a claim at the mark itself is not stale")
	v = checked(t, Store(), call(1, 0, 10, writeOp("k", 6, Out{Result: OK})), call(2, 20, 30, claimMarkOp(5, Out{Result: Refused, Reason: "stale_token", Mark: 6})))
	assert.Equal(t, v, Linearizable, "a write at 6 raised the mark: a claim at 5 after it is stale")
}

func TestAClaimOfTheMarkWithNoAnswerMayHaveTakenEffectOrNot(t *testing.T) {
	lost := call(1, 0, 0, claimMarkOp(5, Out{}))
	assert.Equal(t, checked(t, Store(), lost, call(2, 20, 30, writeOp("k", 4, Out{Result: OK}))), Linearizable,
		"the claim at 5 may not have happened: token 4's write may be accepted")
	assert.Equal(t, checked(t, Store(), lost, call(2, 20, 30, writeOp("k", 4, Out{Result: Refused, Reason: "stale_token", Mark: 5}))), Linearizable,
		"the claim at 5 may have happened: token 4's write may be refused, mark 5")
	assert.Equal(t, checked(t, Store(), lost, readMark(2, 20, 30, 5, 1)), NotLinearizable,
		"whether or not it happened, a claim of the mark writes nothing")
	assert.Equal(t, checked(t, Store(), lost, readMark(2, 20, 30, 6, 0)), NotLinearizable,
		"a lost claim at 5 cannot leave the mark at 6")
}

// The check itself.

func TestAHistoryTheBudgetCannotDecideIsUnknownNeverTrue(t *testing.T) {
	// Many overlapping claims by different owners, every one of them
	// refused for a holder that never claimed: no order works, and the
	// checker has to try a great many before it can say so.
	var ops []Op
	for i := range 40 {
		ops = append(ops, call(i+1, 0, 1000, claimOp(fmt.Sprintf("w%d", i), "m", 100,
			Out{Result: Refused, Reason: "lease_held", Holder: fmt.Sprintf("w%d", (i+1)%40)})))
	}
	ops = append(ops, call(99, 0, 1000, claimOp("z", "m", 100, won(1, 100))))
	for i := range ops {
		ops[i].Seq = 1
	}
	r := Check(Mailbox(10, 3), ops, time.Nanosecond)
	assert.Check(t, r.Verdict != Linearizable, "a check cut short by its budget said linearizable")
	assert.Check(t, cmp.Equal(Undecided.JSON(), "unknown"), "unknown is printed as the string \"unknown\"")
	assert.Check(t, cmp.Equal(Linearizable.JSON(), true))
	assert.Check(t, cmp.Equal(NotLinearizable.JSON(), false))
}

func TestRecordsMergeIntoOneOpPerCallAnsweredWhereTheAnswerCame(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "ops-1.jsonl"))
	assert.NilError(t, err)
	rec := NewRecorder(f, 1)
	answered, err := rec.Call(Op{Kind: Claim, Key: "m", Actor: "a", Now: 100})
	assert.NilError(t, err)
	assert.NilError(t, answered(won(1, 100)))
	_, err = rec.Call(Op{Kind: Complete, Key: "m", Actor: "a", Token: 1}) // killed: no answer
	assert.NilError(t, err)
	f.WriteString(`{"process":1,"seq":3,"op":"cl`) // a line a kill cut short
	f.Close()

	ops, err := Merge(filepath.Join(dir, "ops-*.jsonl"))
	assert.NilError(t, err)
	assert.Assert(t, cmp.Len(ops, 2), "two calls began; the cut line is no call")
	assert.Check(t, ops[0].Kind == Claim && ops[0].answered() && ops[0].Out.Token == 1, "the claim's answer was recorded: %+v", ops[0])
	assert.Check(t, ops[0].Call <= ops[0].Return, "a call returns after it begins")
	assert.Check(t, ops[1].Kind == Complete && !ops[1].answered() && ops[1].end() > ops[0].Return,
		"the completion got no answer: it may take effect at any time after it began: %+v", ops[1])
	var b strings.Builder
	assert.NilError(t, WriteLines(&b, ops))
	assert.Check(t, cmp.Equal(strings.Count(b.String(), "\n"), 2), "one JSON line per operation")
}
