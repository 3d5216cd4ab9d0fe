// Package mailboxlab holds the runner's mailbox experiments (chapters 1-4):
// naive, claim, lease and deadletter. Each sets up a fresh ledger database,
// drives internal/mailbox through a fixed story on a logical clock, and
// returns what happened for the runner to print.
package mailboxlab

import (
	"context"
	"path/filepath"

	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// The worker identities the mailbox chapters use.
const (
	workerA = "worker-a"
	workerB = "worker-b"
)

// ledgerFile is the database every mailbox experiment writes, inside the
// runner's temporary directory.
const ledgerFile = "ledger.db"

// openLedger opens (creating if needed) the ledger in dir with the mailbox
// schema.
func openLedger(ctx context.Context, dir string) (*sqlitedb.DB, error) {
	db, err := sqlitedb.Open(ctx, filepath.Join(dir, ledgerFile))
	if err != nil {
		return nil, err
	}
	if err := mailbox.CreateSchema(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// final is a message's committed state at the end of a story.
type final struct {
	State      string `json:"state"`
	ClaimOwner string `json:"claim_owner,omitempty"`
	Token      int64  `json:"fencing_token,omitempty"`
}

func finalOf(msg mailbox.Message) final {
	return final{State: string(msg.State), ClaimOwner: msg.Owner, Token: msg.Token}
}

// outcomeOf turns a mailbox call's error into the JSON's result words:
// success, "refused" with the reason, or an error for anything else.
func outcomeOf(success string, err error) (cli.Outcome, error) {
	return cli.OutcomeOf(success, err, mailbox.ReasonOf)
}

// noClock is the clock of experiments whose claims never expire.
var noClock clock.Fixed
