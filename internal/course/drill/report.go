package drill

// This file renders a check for people: a progress line per step as it
// finishes, the table at the end, and the same table in Markdown for a CI
// job summary.

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fencelab/fencelab/internal/course/check"
	"github.com/fencelab/fencelab/internal/course/weakening"
)

// progressLine is the line printed as one weakening's verdict arrives.
func progressLine(done, total int, r check.Result) string {
	width := len(fmt.Sprint(total))
	line := fmt.Sprintf("[%*d/%d] %-8s %s %s (%.1fs)", width, done, total, r.Verdict, r.Chapter, r.Name, r.Seconds)
	if r.Verdict != check.Caught {
		line += ": " + r.Reason
	}
	return line
}

// baselineLine is the line printed for a chapter's baseline, once the
// baseline run is done.
func baselineLine(b check.Baseline) string {
	if b.Passed {
		return fmt.Sprintf("baseline %s: ok (%d tests)", b.Chapter, len(b.Tests))
	}
	return fmt.Sprintf("baseline %s: FAILING: %s", b.Chapter, b.Reason)
}

// writeTable prints the final table and the verdict line.
func writeTable(w io.Writer, rep *check.Report) {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CHAPTER\tWEAKENING\tVERDICT\tSECONDS\tFAILED TESTS (or why not caught)")
	for _, r := range rep.Weakenings {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Chapter, r.Name, r.Verdict, secondsCell(r), r.Detail())
	}
	tw.Flush()
	for _, r := range rep.Weakenings {
		if r.Verdict == check.Survived {
			fmt.Fprintf(w, "\n%s survived: the tests its tests: line names all passed with it applied. Next:\n"+
				"  1. see what ran and what passed: go run ./tools/drill try -v %s\n"+
				"  2. if a test should catch it, sharpen that test, or write one that fails under it, and name it on the tests: line of %s/%s/%s/%s.txtar\n"+
				"  3. if no test of the chapter can see the mistake, change the weakening so it breaks what the tests check, or remove it from the catalog and the chapter text\n",
				r.Name, r.Name, weakening.ChaptersDir, r.Chapter, weakening.Dir, r.Name)
		}
	}
	for _, b := range rep.Baselines {
		if !b.Passed {
			fmt.Fprintf(w, "\nbaseline failing: %s: %s\n", b.Chapter, b.Reason)
		}
	}
	if len(rep.NeverFailing) > 0 {
		fmt.Fprintf(w, "\nTests no weakening made fail (name them on the tests: line of a weakening they fail under, add a weakening they catch, or give a reason in the chapter's weakenings/never-failing.txt):\n")
		for _, ct := range rep.NeverFailing {
			fmt.Fprintf(w, "  %s  %s%s\n", ct.Chapter, ct.Test, failsUnderHint(ct))
		}
	}
	if len(rep.Learner) > 0 {
		fmt.Fprintf(w, "\nYour own tests (learner_*_test.go), left out of the check; drill grade grades them:\n")
		for _, ct := range rep.Learner {
			fmt.Fprintf(w, "  %s  %s\n", ct.Chapter, ct.Test)
		}
	}
	if len(rep.Excused) > 0 {
		fmt.Fprintf(w, "\nExcused from failing (weakenings/never-failing.txt):\n")
		for _, ct := range rep.Excused {
			fmt.Fprintf(w, "  %s  %s: %s\n", ct.Chapter, ct.Test, ct.Reason)
		}
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "\nCatalog problems:\n")
		for _, p := range rep.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	fmt.Fprintf(w, "\n%s\n", summary(rep))
}

// failsUnderHint says which weakening's tests: line should name a test
// that never failed only because no line names it.
func failsUnderHint(ct check.ChapterTest) string {
	if len(ct.FailsUnder) == 0 {
		return ""
	}
	return fmt.Sprintf(": it fails under %s; add %s to the tests: line of %s/%s/%s/%s.txtar",
		strings.Join(ct.FailsUnder, ", "), ct.Test, weakening.ChaptersDir, ct.Chapter, weakening.Dir, ct.FailsUnder[0])
}

// summary is the one-line outcome.
func summary(rep *check.Report) string {
	c := rep.Counts()
	status := "ok"
	if !rep.OK {
		status = "FAIL"
	}
	return fmt.Sprintf("drill check: %s: %d weakenings: %d caught, %d survived, %d invalid; %d verdicts reused; %d tests never failing (%d excused); %.1fs",
		status, len(rep.Weakenings), c.Caught, c.Survived, c.Invalid, rep.Reused, len(rep.NeverFailing), len(rep.Excused), rep.Seconds)
}

// secondsCell is a verdict's time in a table, or "reused" for a stored
// verdict, which took none.
func secondsCell(r check.Result) string {
	if r.Reused {
		return "reused"
	}
	return fmt.Sprintf("%.1f", r.Seconds)
}

// writeMarkdown prints the table as Markdown, for a CI job summary.
func writeMarkdown(w io.Writer, rep *check.Report) {
	fmt.Fprintf(w, "## Break-and-fix check\n\n%s\n\n", summary(rep))
	fmt.Fprintf(w, "| chapter | weakening | verdict | seconds | failed tests (or why not caught) |\n|---|---|---|---:|---|\n")
	for _, r := range rep.Weakenings {
		fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s |\n", r.Chapter, r.Name, r.Verdict, secondsCell(r), mdCell(r.Detail()))
	}
	for _, b := range rep.Baselines {
		if !b.Passed {
			fmt.Fprintf(w, "\n**Baseline failing** in %s: %s\n", b.Chapter, mdCell(b.Reason))
		}
	}
	if len(rep.NeverFailing) > 0 {
		fmt.Fprintf(w, "\n### Tests no weakening made fail\n\n")
		for _, ct := range rep.NeverFailing {
			fmt.Fprintf(w, "- %s `%s`\n", ct.Chapter, ct.Test)
		}
	}
	if len(rep.Excused) > 0 {
		fmt.Fprintf(w, "\n### Excused from failing\n\n")
		for _, ct := range rep.Excused {
			fmt.Fprintf(w, "- %s `%s`: %s\n", ct.Chapter, ct.Test, mdCell(ct.Reason))
		}
	}
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "\n### Catalog problems\n\n")
		for _, p := range rep.Problems {
			fmt.Fprintf(w, "- %s\n", mdCell(p))
		}
	}
}

// mdCell makes s safe inside a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}
