package mailbox

// This file holds Claim: the compare-and-set that decides who owns a
// message, with same-owner renewal and takeover after expiry.

import (
	"context"
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
//   - If owner already holds an unexpired lease, it gets the same token
//     back (Renewed): a retry inside your own lease is idempotent and must
//     not invalidate your own in-flight completion.
//   - Otherwise owner wins only by compare-and-set: the message is NEW, or
//     its lease has expired (expires_at <= now). The winner gets a fresh
//     token, strictly greater than any minted before. That includes the same
//     owner coming back after its own lease lapsed: a new generation.
//
// A refused claim returns a *Refusal (LeaseHeld with the holder, or
// NotClaimable) and burns no token: the mint rolls back with the refusal.
func (m *Mailbox) Claim(ctx context.Context, id, owner string) (Claim, error) {
	now := m.clock.Now()
	var won Claim
	err := m.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		cur, err := scanMessage(tx.QueryRow(ctx, selectMessage, id), id)
		if err != nil {
			return err
		}
		if cur.State == Claimed && cur.Owner == owner && cur.Expires && cur.ExpiresAt > now {
			won = Claim{Token: cur.Token, ExpiresAt: cur.ExpiresAt, Expires: true, Renewed: true}
			return nil
		}

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
			return claimRefusal(cur)
		}
		won = Claim{Token: tok}
		if m.lease > 0 {
			won.ExpiresAt, won.Expires = clock.Expiry(now, m.lease), true
		}
		return nil
	})
	if err != nil {
		return Claim{}, err
	}
	return won, nil
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
