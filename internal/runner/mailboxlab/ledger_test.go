package mailboxlab

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// TestALedgerWhoseSchemaCannotBeMadeLeavesNothingRunning: every mailbox
// experiment opens its ledger and makes the schema; when the schema
// cannot be made (here an index already has the messages table's name),
// the open fails and closes what it opened, leaving no goroutine of
// database/sql's behind. The call runs in a testing/synctest bubble,
// which fails the test if one is still waiting when the call is over.
func TestALedgerWhoseSchemaCannotBeMadeLeavesNothingRunning(t *testing.T) {
	dir := t.TempDir()
	spoilSchema(t, dir)

	synctest.Test(t, func(t *testing.T) {
		db, err := openLedger(t.Context(), dir)
		if err == nil {
			db.Close()
		}
		assert.Check(t, cmp.ErrorContains(err, "already an index named messages"), "opening a ledger whose messages table cannot be made; want it to fail there, leaving nothing running")
	})
}

// spoilSchema leaves in dir a ledger on which the mailbox's schema cannot
// be made: an index already has the messages table's name.
func spoilSchema(t *testing.T, dir string) {
	t.Helper()
	db, err := sqlitedb.Open(t.Context(), filepath.Join(dir, ledgerFile))
	assert.NilError(t, err)
	defer db.Close()
	assert.NilError(t, db.Immediate(t.Context(), func(tx *sqlitedb.Tx) error {
		if _, err := tx.Exec(t.Context(), `CREATE TABLE other (x)`); err != nil {
			return err
		}
		_, err := tx.Exec(t.Context(), `CREATE INDEX messages ON other (x)`)
		return err
	}))
}

// refuseAdds leaves in dir a ledger with the mailbox's schema whose every
// new message is refused, by a trigger.
func refuseAdds(t *testing.T, dir string) {
	t.Helper()
	db, err := openLedger(t.Context(), dir)
	assert.NilError(t, err)
	defer db.Close()
	assert.NilError(t, db.Immediate(t.Context(), func(tx *sqlitedb.Tx) error {
		_, err := tx.Exec(t.Context(), `CREATE TRIGGER no_adds BEFORE INSERT ON messages BEGIN SELECT RAISE(FAIL, 'no more messages'); END`)
		return err
	}))
}

// TestAnExperimentWhoseLedgerFailsFails: every mailbox experiment, told
// the story or racing, fails when its ledger's schema cannot be made, or
// its first message cannot be added; it prints nothing, names the cause,
// and leaves no file of its run open.
func TestAnExperimentWhoseLedgerFailsFails(t *testing.T) {
	for _, spoil := range []struct {
		what  string
		spoil func(*testing.T, string)
		cause string
	}{
		{"whose schema cannot be made", spoilSchema, "already an index named messages"},
		{"that refuses every new message", refuseAdds, "no more messages"},
	} {
		for _, tc := range []struct {
			cmd  cli.Command
			args []string
		}{
			{Naive, nil}, {Claim, nil}, {Lease, nil}, {DeadLetter, nil},
			{Naive, []string{"--race", "--processes", "2", "--rounds", "1"}},
			{Claim, []string{"--race", "--processes", "2", "--rounds", "1"}},
		} {
			name := strings.Join(append([]string{tc.cmd.Name}, tc.args...), " ")
			t.Run(name+" "+spoil.what, func(t *testing.T) {
				dir := t.TempDir()
				spoil.spoil(t, dir)
				fs := flag.NewFlagSet(tc.cmd.Name, flag.ContinueOnError)
				exp := tc.cmd.New(fs)
				assert.NilError(t, fs.Parse(tc.args))
				result, err := exp.Run(t.Context(), cli.Env{Dir: dir, Stderr: io.Discard})
				assert.Check(t, cmp.ErrorContains(err, spoil.cause), "fencelab %s on a ledger %s", name, spoil.what)
				assert.Check(t, result == nil, "fencelab %s on a ledger %s printed %+v", name, spoil.what, result)
				assert.Check(t, cmp.Len(openUnder(t, dir), 0), "fencelab %s on a ledger %s left files of its run open", name, spoil.what)
			})
		}
	}
}

// openUnder lists the files under dir this process holds open, read from
// /proc/self/fd (none where there is no /proc).
func openUnder(t *testing.T, dir string) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	var open []string
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
			open = append(open, target)
		}
	}
	return open
}
