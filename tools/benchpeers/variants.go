package main

// This file holds the four cycles the benchmark compares. Each one moves a
// message through the same three steps (it is stored, a worker takes it,
// the worker finishes it), each step its own BEGIN IMMEDIATE transaction,
// on a fresh SQLite file with the course's settings.

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strconv"

	"maragu.dev/goqite"
	_ "modernc.org/sqlite" // the driver the course uses, registered as "sqlite"

	naiveclaim "github.com/fencelab/fencelab/chapters/ch01_naive_claim"
	"github.com/fencelab/fencelab/internal/clock"
	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/sqlitedb"
)

// variant is one cycle to measure. open prepares a fresh file at path and
// returns the cycle, run once per message number i, and what closes it.
type variant struct {
	name string
	open func(ctx context.Context, path string) (cycle func(i int) error, closeFn func() error, err error)
}

// variants are the cycles, in the order the report lists them.
var variants = []variant{
	{"fenced", openFenced},
	{"naive", openNaive},
	{"goqite", openGoqite},
	{"floor", openFloor},
}

// openFenced is the course's mailbox: Add, then Claim (token minted and
// compare-and-set in one transaction), then Complete under that token.
func openFenced(ctx context.Context, path string) (func(int) error, func() error, error) {
	db, err := openMailboxDB(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	box := mailbox.Open(db, new(clock.Logical), mailbox.NoLease)
	cycle := func(i int) error {
		id := "msg-" + strconv.Itoa(i)
		if err := box.Add(ctx, id, "bench"); err != nil {
			return err
		}
		c, err := box.Claim(ctx, id, "worker-a")
		if err != nil {
			return err
		}
		return box.Complete(ctx, id, "worker-a", c.Token)
	}
	return cycle, db.Close, nil
}

// openNaive is chapter 1's wrong version: Add, then read the state outside
// any transaction, decide in Go, write the claim by id alone, and complete
// for whoever asks.
func openNaive(ctx context.Context, path string) (func(int) error, func() error, error) {
	db, err := openMailboxDB(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	box := mailbox.Open(db, new(clock.Logical), mailbox.NoLease)
	cycle := func(i int) error {
		id := "msg-" + strconv.Itoa(i)
		if err := box.Add(ctx, id, "bench"); err != nil {
			return err
		}
		saw, err := naiveclaim.ReadState(ctx, db, id)
		if err != nil {
			return err
		}
		if !naiveclaim.DecideToClaim(saw) {
			return fmt.Errorf("naive: %s was %s, not NEW", id, saw)
		}
		if err := naiveclaim.WriteClaim(ctx, db, id, "worker-a"); err != nil {
			return err
		}
		return naiveclaim.Complete(ctx, db, id)
	}
	return cycle, db.Close, nil
}

// openMailboxDB opens path through the course's SQLite layer and creates
// the mailbox's tables.
func openMailboxDB(ctx context.Context, path string) (*sqlitedb.DB, error) {
	db, err := sqlitedb.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := mailbox.CreateSchema(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// goqiteSchema is goqite v0.4.0's schema_sqlite.sql, which its users run
// once themselves; the package does not ship it in Go.
const goqiteSchema = `
create table goqite (
  id text primary key default ('m_' || lower(hex(randomblob(16)))),
  created text not null default (strftime('%Y-%m-%dT%H:%M:%fZ')),
  updated text not null default (strftime('%Y-%m-%dT%H:%M:%fZ')),
  queue text not null,
  body blob not null,
  timeout text not null default (strftime('%Y-%m-%dT%H:%M:%fZ')),
  received integer not null default 0,
  priority integer not null default 0
) strict;

create trigger goqite_updated_timestamp after update on goqite begin
  update goqite set updated = strftime('%Y-%m-%dT%H:%M:%fZ') where id = old.id;
end;

create index goqite_queue_priority_created_idx on goqite (queue, priority desc, created);
`

// openGoqite is goqite used as its README shows: Send, Receive, Delete,
// each its own transaction through database/sql's pool. It fences nothing:
// a receiver whose timeout passed can still delete the message.
func openGoqite(ctx context.Context, path string) (func(int) error, func() error, error) {
	db, err := openRaw(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	if _, err := db.ExecContext(ctx, goqiteSchema); err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("goqite schema: %w", err)
	}
	q := goqite.New(goqite.NewOpts{DB: db, Name: "bench"})
	cycle := func(int) error {
		if err := q.Send(ctx, goqite.Message{Body: []byte("bench")}); err != nil {
			return err
		}
		m, err := q.Receive(ctx)
		if err != nil {
			return err
		}
		if m == nil {
			return fmt.Errorf("goqite: received nothing right after a send")
		}
		return q.Delete(ctx, m.ID)
	}
	return cycle, db.Close, nil
}

// openFloor is the least any such cycle can cost here: three one-statement
// BEGIN IMMEDIATE transactions on one kept connection, every statement
// prepared once, no token, no check, no refusal to explain.
func openFloor(ctx context.Context, path string) (func(int) error, func() error, error) {
	mdb, err := openMailboxDB(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	if err := mdb.Close(); err != nil {
		return nil, nil, err
	}
	db, err := openRaw(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	queries := []string{
		`BEGIN IMMEDIATE`,
		`COMMIT`,
		`INSERT INTO messages(id, body) VALUES (?, ?)`,
		`UPDATE messages SET state = 'CLAIMED', claim_owner = ? WHERE id = ?`,
		`UPDATE messages SET state = 'DONE' WHERE id = ?`,
	}
	stmts := make([]*sql.Stmt, 0, len(queries))
	closeAll := func() error {
		for _, s := range stmts {
			s.Close()
		}
		conn.Close()
		return db.Close()
	}
	for _, query := range queries {
		s, err := conn.PrepareContext(ctx, query)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("floor: prepare %q: %w", query, err)
		}
		stmts = append(stmts, s)
	}
	begin, commit, insert, claim, complete := stmts[0], stmts[1], stmts[2], stmts[3], stmts[4]
	inTx := func(s *sql.Stmt, args ...any) error {
		if _, err := begin.ExecContext(ctx); err != nil {
			return err
		}
		if _, err := s.ExecContext(ctx, args...); err != nil {
			return err // the benchmark stops here; the connection is not reused
		}
		_, err := commit.ExecContext(ctx)
		return err
	}
	cycle := func(i int) error {
		id := "msg-" + strconv.Itoa(i)
		if err := inTx(insert, id, "bench"); err != nil {
			return err
		}
		if err := inTx(claim, "worker-a", id); err != nil {
			return err
		}
		return inTx(complete, id)
	}
	return cycle, closeAll, nil
}

// pragmas are the settings internal/sqlitedb gives every connection. The
// peers are opened with the same ones; sameSettings checks that they match.
var pragmas = []string{"busy_timeout(5000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(ON)"}

// openRaw opens path with database/sql alone, with the course's pragmas,
// and with BEGIN IMMEDIATE for database/sql's own transactions (goqite's),
// as the course uses for all of its own.
func openRaw(ctx context.Context, path string) (*sql.DB, error) {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// sameSettings fails unless a connection opened by openRaw and one opened
// by internal/sqlitedb report the same values for every setting that
// changes what a transaction costs.
func sameSettings(ctx context.Context, dir string) error {
	path := dir + "/settings.db"
	course, err := sqlitedb.Open(ctx, path)
	if err != nil {
		return err
	}
	defer course.Close()
	peer, err := openRaw(ctx, path)
	if err != nil {
		return err
	}
	defer peer.Close()
	for _, p := range []string{"busy_timeout", "journal_mode", "synchronous", "foreign_keys"} {
		var want, got string
		if err := course.QueryRow(ctx, "PRAGMA "+p).Scan(&want); err != nil {
			return fmt.Errorf("settings: %s: %w", p, err)
		}
		if err := peer.QueryRowContext(ctx, "PRAGMA "+p).Scan(&got); err != nil {
			return fmt.Errorf("settings: %s: %w", p, err)
		}
		if got != want {
			return fmt.Errorf("settings: the peers' %s is %s, the course's %s: update pragmas in variants.go", p, got, want)
		}
	}
	return nil
}
