package drill

// The journey: a learner works five of the course's real exercises in a
// row, over two chapters, in their own words, committing after each; in
// the middle they reset one half-way and lose drill's state folder. Then a
// fresh clone of their repository is graded from the saved solutions
// alone, a hand-edited record changes no count, and a solution that does
// not fix its fault fails. It runs the course's chapters many times, so it
// runs only with -journey (make journey).

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"

	"github.com/fencelab/fencelab/internal/course/exercise"
)

var journey = flag.Bool("journey", false, "play a learner through five of the course's exercises and grade a clone (slow)")

// learnerRepo copies the course at the root of this repository into a
// git repository of its own, committed: the learner's fork.
func learnerRepo(t *testing.T) string {
	t.Helper()
	needGit(t)
	src, err := filepath.Abs(filepath.Join("..", "..", ".."))
	assert.NilError(t, err)
	dst := t.TempDir()
	for _, name := range []string{".gitignore", "go.mod", "go.sum", "Makefile", "chapters", "internal", "tools", "testdata"} {
		info, err := os.Stat(filepath.Join(src, name))
		assert.NilError(t, err)
		if info.IsDir() {
			assert.NilError(t, os.CopyFS(filepath.Join(dst, name), os.DirFS(filepath.Join(src, name))))
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, name))
		assert.NilError(t, err)
		assert.NilError(t, os.WriteFile(filepath.Join(dst, name), data, 0o644))
	}
	// A course checkout holds no learner's state or solutions.
	for _, leftover := range []string{exercise.StateDir} {
		assert.NilError(t, os.RemoveAll(filepath.Join(dst, leftover)))
	}
	git(t, dst, "init", "-q", ".")
	git(t, dst, "add", "-A")
	git(t, dst, "commit", "-q", "-m", "the course")
	return dst
}

// drillOK runs drill in root and fails the test unless it exits 0.
func drillOK(t *testing.T, root string, args ...string) string {
	t.Helper()
	var out, errOut strings.Builder
	tool := &Tool{Root: root, Stdout: &out, Stderr: &errOut}
	code := tool.Run(t.Context(), args)
	assert.Assert(t, cmp.Equal(code, 0), "drill %s:\n%s%s", strings.Join(args, " "), out.String(), errOut.String())
	return out.String()
}

// edit replaces old, which must occur once, by new in rel under root.
func edit(t *testing.T, root, rel, old, new string) {
	t.Helper()
	src := readFile(t, root, rel)
	assert.Assert(t, cmp.Equal(strings.Count(src, old), 1), "%s must hold once:\n%s", rel, old)
	writeFile(t, root, rel, strings.Replace(src, old, new, 1))
}

// The learner's own words for each exercise of the journey.
const (
	completeFile   = "internal/mailbox/complete.go"
	deadLetterFile = "internal/mailbox/deadletter.go"

	// fix-complete-verdict: the RowsAffected check, written another way.
	brokenVerdict = "\t\t} else if n == 0 {\n"
	ownVerdict    = `		changed, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("complete %s: %w", id, err)
		}
		if changed != 1 {
			// Nothing was updated: say why, from the row as it stands.
			return explainRefusal(ctx, tx, "complete", id)
		}
		return nil
`
	// test-exact-token: the learner's own test.
	ownTokenTest = `package casclaim

import (
	"testing"

	"github.com/fencelab/fencelab/internal/mailbox"
	"github.com/fencelab/fencelab/internal/mailbox/mailboxtest"
)

// Every token but the issued one, below or above it, is turned away as
// stale, and the message stays claimed by its owner.
func TestMyOnlyTheIssuedTokenFinishes(t *testing.T) {
	l := mailboxtest.New(t)
	l.Add("m", "Stack the crates")
	box := l.Mailbox(mailbox.NoLease)
	got := mailboxtest.Claim(t, box, "m", "alice")
	for _, wrong := range []int64{got.Token - 1, got.Token + 1, got.Token + 50} {
		err := box.Complete(t.Context(), "m", "alice", wrong)
		if r := mailboxtest.Reason(t, err); r != mailbox.StaleToken {
			t.Fatalf("Complete with token %d (issued %d) = %v; want stale_token", wrong, got.Token, r)
		}
		if row := l.Get("m"); row.State != mailbox.Claimed || row.Token != got.Token {
			t.Fatalf("after the stale token %d the row is %s with token %d; want CLAIMED with %d", wrong, row.State, row.Token, got.Token)
		}
	}
	if err := box.Complete(t.Context(), "m", "alice", got.Token); err != nil {
		t.Fatalf("Complete with the issued token %d = %v; want nil", got.Token, err)
	}
	if row := l.Get("m"); row.State != mailbox.Done {
		t.Fatalf("after the issued token, the row is %s; want DONE", row.State)
	}
}
`
	// build-complete: Complete written again.
	completeStub = "\treturn fmt.Errorf(\"complete %s: Mailbox.Complete is yours to write (exercise build-complete)\", id)\n"
	ownComplete  = "\treturn m.db.Immediate(ctx, func(tx *sqlitedb.Tx) error {\n" +
		"\t\tconst done = `UPDATE messages SET state = 'DONE'\n" +
		"\t\t\tWHERE id = ? AND state = 'CLAIMED' AND claim_owner = ? AND fencing_token = ?`\n" +
		"\t\tres, err := tx.Exec(ctx, done, id, owner, tok)\n" +
		"\t\tif err != nil {\n\t\t\treturn fmt.Errorf(\"complete %s: %w\", id, err)\n\t\t}\n" +
		"\t\trows, err := res.RowsAffected()\n" +
		"\t\tswitch {\n\t\tcase err != nil:\n\t\t\treturn fmt.Errorf(\"complete %s: %w\", id, err)\n" +
		"\t\tcase rows == 0:\n\t\t\treturn explainRefusal(ctx, tx, \"complete\", id)\n\t\t}\n" +
		"\t\treturn nil\n\t})\n"
	// fix-stale-dead-letter: the token check put back in other words.
	brokenDeadLetter = "AND state IN ('NEW', 'CLAIMED') AND fencing_token IS NOT ?`"
	ownDeadLetter    = "AND state IN ('CLAIMED', 'NEW') AND (fencing_token IS ?)`"
)

func TestJourneyOfALearnerHoldsFromExerciseToExercise(t *testing.T) {
	if !*journey {
		t.Skip("the learner's journey runs with -journey (make journey)")
	}
	start := time.Now()
	root := learnerRepo(t)
	// The course as released, before the learner's first commit: what an
	// instructor grades against.
	course := t.TempDir()
	git(t, course, "clone", "-q", root, ".")
	commit := func(msg string) {
		t.Helper()
		git(t, root, "add", "-A")
		git(t, root, "commit", "-q", "-m", msg)
	}

	// 1. A fix, in other words than the shipped code, committed.
	drillOK(t, root, "start", "fix-complete-verdict")
	assert.Check(t, cmp.Equal(gitOutput(t, root, "diff"), ""), "git diff shows the hidden fault")
	edit(t, root, completeFile, "\t\tif n, err := res.RowsAffected(); err != nil {\n\t\t\treturn fmt.Errorf(\"complete %s: %w\", id, err)\n"+brokenVerdict+
		"\t\t\treturn nil\n\t\t}\n\t\treturn explainRefusal(ctx, tx, \"complete\", id)\n", ownVerdict)
	out := drillOK(t, root, "verify")
	assert.Check(t, cmp.Contains(out, "fix-complete-verdict: done"))
	assert.Check(t, cmp.Equal(gitOutput(t, root, "status", "--porcelain"), "?? chapters/ch02_cas_claim/solutions/\n"),
		"once done, the solution is the only change: the mechanism is as shipped")
	commit("drill: fix-complete-verdict")

	// 2. A test exercise, committed.
	drillOK(t, root, "start", "test-exact-token")
	writeFile(t, root, "chapters/ch02_cas_claim/learner_test_exact_token_test.go", ownTokenTest)
	out = drillOK(t, root, "verify")
	assert.Check(t, cmp.Contains(out, "test-exact-token: done"))
	commit("drill: test-exact-token")

	// 3. A build, reset half-way; drill's state lost; started again and
	// written in the learner's own words.
	drillOK(t, root, "start", "build-complete")
	edit(t, root, completeFile, completeStub, "\t// half-way there\n"+completeStub)
	out = drillOK(t, root, "reset", "build-complete")
	assert.Check(t, cmp.Contains(out, "kept your work aside: .drill/aside/build-complete-"))
	drillOK(t, root, "start", "build-complete")
	assert.NilError(t, os.RemoveAll(filepath.Join(root, exercise.StateDir)))
	out = drillOK(t, root, "reset", "build-complete")
	assert.Check(t, cmp.Contains(out, "internal/mailbox/complete.go is as shipped"), "reset needs no state:\n%s", out)
	drillOK(t, root, "start", "build-complete")
	edit(t, root, completeFile, completeStub, ownComplete)
	git(t, root, "commit", "-q", "--allow-empty", "-am", "a commit mid-exercise")
	assert.Check(t, cmp.Equal(gitOutput(t, root, "show", "--name-only", "--format=", "HEAD"), ""),
		"a commit in the middle of an exercise carries no stub and no half-work")
	out = drillOK(t, root, "verify")
	assert.Check(t, cmp.Contains(out, "build-complete: done"))
	commit("drill: build-complete")

	// 4. The next chapter: a fix, committed.
	drillOK(t, root, "start", "fix-stale-dead-letter")
	edit(t, root, deadLetterFile, brokenDeadLetter, ownDeadLetter)
	out = drillOK(t, root, "verify")
	assert.Check(t, cmp.Contains(out, "fix-stale-dead-letter: done"))
	commit("drill: fix-stale-dead-letter")

	// 5. A test exercise of that chapter, from the reference the proof
	// uses, renamed as a learner would.
	drillOK(t, root, "start", "test-dead-is-terminal")
	set, err := (&Tool{Root: root}).exerciseSet()
	assert.NilError(t, err)
	e, _ := set.Lookup("test-dead-is-terminal")
	ref := loadReference(t, e)
	writeFile(t, root, e.LearnerFile(), ref)
	out = drillOK(t, root, "verify")
	assert.Check(t, cmp.Contains(out, "test-dead-is-terminal: done"))
	commit("drill: test-dead-is-terminal")
	t.Logf("five exercises in %.0fs", time.Since(start).Seconds())

	// A fresh clone is graded from its saved solutions alone; a record
	// written by hand changes nothing.
	clone := t.TempDir()
	git(t, clone, "clone", "-q", root, ".")
	assert.NilError(t, os.MkdirAll(filepath.Join(clone, exercise.StateDir), 0o755))
	forged := `{"exercises": {"fix-claim-state-check": {"status": "done"}, "build-dead-letter": {"status": "done"}}}`
	writeFile(t, clone, filepath.Join(exercise.StateDir, "progress.json"), forged)
	graded := time.Now()
	var rep gradeReport
	assert.NilError(t, json.Unmarshal([]byte(drillOK(t, clone, "grade", "--json", "--course", course)), &rep))
	t.Logf("drill grade of a clone: %.0fs", time.Since(graded).Seconds())
	want := []string{"fix-complete-verdict", "test-exact-token", "build-complete", "fix-stale-dead-letter", "test-dead-is-terminal"}
	for _, g := range rep.Exercises {
		wantVerified := false
		for _, w := range want {
			wantVerified = wantVerified || g.Name == w
		}
		if wantVerified {
			assert.Check(t, cmp.Equal(g.Verdict, exercise.Verified), "%s: %s", g.Name, g.Detail)
		} else {
			assert.Check(t, cmp.Equal(g.Verdict, exercise.Missing), "%s has no solution, yet is %s", g.Name, g.Verdict)
		}
	}
	assert.Check(t, cmp.Equal(rep.Verified, len(want)))
	assert.Check(t, rep.Proven, "a grade against the course as released is proven")
	assert.Check(t, cmp.Equal(rep.Total, len(set.Exercises)))
	assert.Check(t, cmp.Equal(progressOf(t, clone).Done, len(want)), "progress counts verified solutions, not the hand-written record")

	// A solution that leaves the fault in fails, and says why.
	sol := filepath.Join("chapters", "ch04_dead_letter", "solutions", "fix-stale-dead-letter.txtar")
	edit(t, clone, sol, "+\t\t\tWHERE id = ? "+ownDeadLetter, "+\t\t\tWHERE id = ? AND state IN ('CLAIMED', 'NEW') AND (fencing_token IS ? OR 1)`")
	code, out, _ := runTool(t, clone, "grade", "fix-stale-dead-letter")
	assert.Check(t, cmp.Equal(code, 1), "a solution that does not fix its fault fails the grade:\n%s", out)
	assert.Check(t, cmp.Contains(out, "failed    fix-stale-dead-letter"), out)
	t.Logf("the whole journey: %.0fs", time.Since(start).Seconds())
}

// loadReference returns test exercise e's reference solution with its
// tests renamed as a learner's would be.
func loadReference(t *testing.T, e *exercise.Exercise) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	assert.NilError(t, err)
	ref, err := e.Reference(root)
	assert.NilError(t, err)
	return strings.ReplaceAll(string(ref), "TestLearner", "TestMine")
}
