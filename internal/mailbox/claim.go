package mailbox

// This file holds Claim: the compare-and-set that decides who owns a
// message, with takeover after expiry and same-owner renewal inside the
// lease.

import (
	"context"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
	"github.com/fencelab/fencelab/internal/token"
)

// Claim is what a successful claim hands its owner.
type Claim struct {
	Token     int64 // present it to Complete and DeadLetter
	ExpiresAt int64 // meaningful only when Expires is true
	Expires   bool
	// Renewed is true when the owner already held an unexpired lease and
	// got its own token back: the same generation, not a new one.
	Renewed bool
}

// Claim makes owner the owner of message id at the clock's current time.
//
// The compare-and-set runs first, for everyone, the owner included: a
// fresh token is minted and the UPDATE takes the message if it is NEW or
// its lease has expired (expires_at <= now). The winner gets that token,
// strictly greater than any minted before. That includes the same owner
// coming back at or after its own lease's expiry minute: a new generation.
//
// Only a refused compare-and-set reads the row, to say why, or to find the
// one refusal that is an answer: owner's own lease, still live, since the
// compare-and-set just refused it. Then owner gets the same token back
// (Renewed): a retry inside your own lease is idempotent and must not
// invalidate your own in-flight completion.
//
// A refused claim returns a *Refusal (LeaseHeld with the holder, or
// NotClaimable). Neither a refusal nor a renewal burns a token: the mint
// rolls back with the transaction.
func (m *Mailbox) Claim(ctx context.Context, id, owner string) (Claim, error) {
	now := m.clock.Now()
	var won Claim
	err := m.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		tok, err := token.Mint(ctx, tx, token.MailboxClaim)
		if err != nil {
			return err
		}
		var expiresAt any // NULL: the claim never expires
		if m.lease > 0 {
			expiresAt = clock.Expiry(now, m.lease)
		}
		res, err := tx.Exec(ctx, `UPDATE messages
			SET state = 'CLAIMED', claim_owner = ?, fencing_token = ?, claim_expires_at = ?
			WHERE id = ?
			  AND (state = 'NEW' OR (state = 'CLAIMED' AND claim_expires_at <= ?))`,
			owner, tok, expiresAt, id, now)
		if err != nil {
			return fmt.Errorf("claim %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("claim %s: %w", id, err)
		} else if n != 1 {
			won, err = refusedOrRenewed(ctx, tx, id, owner)
			return err
		}
		won = Claim{Token: tok}
		if m.lease > 0 {
			won.ExpiresAt, won.Expires = clock.Expiry(now, m.lease), true
		}
		return nil
	})
	if errors.Is(err, errRenewed) {
		return won, nil
	}
	if err != nil {
		return Claim{}, err
	}
	return won, nil
}

// errRenewed is what a claim's transaction returns to roll itself back
// when it found the caller's own live lease: the answer is the token the
// row already holds, and the token minted for the compare-and-set must not
// be kept. (Nor is it if that ROLLBACK fails: the connection is then
// closed, which rolls the transaction back.)
var errRenewed = errors.New("mailbox: renewed inside the caller's own lease")

// refusedOrRenewed reads the row a claim's compare-and-set did not take.
// If it is owner's own lease, that lease is live (the compare-and-set just
// found expires_at > now), and the answer is its token with errRenewed.
// Otherwise the answer is the refusal.
func refusedOrRenewed(ctx context.Context, tx *sqlitedb.Tx, id, owner string) (Claim, error) {
	cur, err := scanMessage(tx.QueryRow(ctx, selectMessage, id), id)
	if err != nil {
		return Claim{}, err
	}
	if cur.State == Claimed && cur.Owner == owner && cur.Expires {
		return Claim{Token: cur.Token, ExpiresAt: cur.ExpiresAt, Expires: true, Renewed: true}, errRenewed
	}
	return Claim{}, claimRefusal(cur)
}

// claimRefusal explains a lost compare-and-set from the row as the refused
// transaction saw it. The explanation is for the caller; the decision was
// already made by the UPDATE's WHERE clause.
func claimRefusal(cur Message) *Refusal {
	r := &Refusal{Op: "claim", ID: cur.ID, Reason: NotClaimable}
	if cur.State == Claimed && cur.Expires {
		r.Reason, r.Holder = LeaseHeld, cur.Owner
	}
	return r
}
