package session

// This file holds RenewHost: a host's own lease, the ledger's record that
// the machine is alive.

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// RenewHost records that host is alive at the clock's current time and
// returns when its host lease now expires.
//
// A host lease is separate from any session lease: a kiosk that lost its
// network stops renewing, and every session it holds stops being
// finishable once the host lease runs out, even if the session lease has
// time left. An empty host name is an error wrapping ErrNoHost.
func (s *Store) RenewHost(ctx context.Context, host string) (expiresAt int64, err error) {
	if host == "" {
		return 0, fmt.Errorf("renew host: %w", ErrNoHost)
	}
	expiresAt = clock.Expiry(s.clock.Now(), s.leases.Host)
	err = s.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO hosts(host, lease_expires_at) VALUES (?, ?)
			ON CONFLICT(host) DO UPDATE SET lease_expires_at = excluded.lease_expires_at`,
			host, expiresAt)
		if err != nil {
			return fmt.Errorf("renew host %s: %w", host, err)
		}
		return nil
	})
	return expiresAt, err
}
