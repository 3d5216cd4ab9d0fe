package fencedstore

// This file holds the successor's claim: a call that moves a key's mark up
// to the caller's token and takes no effect. The fence only orders writes:
// a stale holder whose write arrives before its successor's first write is
// accepted, because the mark is still below the successor's token. A
// successor that claims the mark before it works closes that window: from
// the claim on, every holder before it is refused.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// opClaim is the claim, as the log and the refusals name it.
const opClaim = "claim"

// ClaimMark moves key's committed mark up to token on behalf of writer,
// with no effect: the key's effect count and completion stay as they are.
// Under Fence it is accepted unless token is below the mark; under None
// whatever the token. An accepted claim is appended to the log; a refused
// one returns a *Refusal with reason StaleToken and changes nothing.
func (s *Store) ClaimMark(ctx context.Context, key string, token int64, writer string) error {
	return s.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		// ?3 is true for the unfenced store, which skips the comparison.
		res, err := tx.Exec(ctx, `UPDATE resources SET mark = MAX(mark, ?2)
			WHERE key = ?1 AND (?3 OR NOT (?2 < mark))`, key, token, s.contract == None)
		if err != nil {
			return fmt.Errorf("claim %s: %w", key, err)
		}
		return accept(ctx, tx, res, opClaim, key, token, writer)
	})
}
