package pictures_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"gotest.tools/v3/assert"
	"gotest.tools/v3/golden"

	"github.com/fencelab/fencelab/internal/runner"
	"github.com/fencelab/fencelab/internal/runner/cli"
	"github.com/fencelab/fencelab/internal/runner/companion"
	"github.com/fencelab/fencelab/internal/runner/etcdroles"
)

// TestMain lets this test binary be the runner's workers, as the
// chapters' test binaries are, and carry chapter 10's etcd roles, as
// chapter 10's does: its lockservice runs here, in this process and the
// members and workers it starts, rather than in the companion.
func TestMain(m *testing.M) {
	companion.Link(etcdroles.Roles)
	testscript.Main(m, map[string]func(){
		"fencelab": func() { os.Exit(runner.MainWith(etcdroles.Roles)) },
	})
}

// pictures is every picture a chapter text embeds: the chapter's folder,
// the file's name in its pictures folder (without .svg), and the runner
// command that draws it (--format svg is added).
var pictures = []struct {
	chapter, name string
	args          []string
}{
	{"ch01_naive_claim", "naive", []string{"naive"}},
	{"ch02_cas_claim", "claim", []string{"claim"}},
	{"ch03_leased_claim", "lease", []string{"lease"}},
	{"ch04_dead_letter", "deadletter", []string{"deadletter"}},
	{"ch05_destination_fencing", "finish-only", []string{"fencing", "--case", "finish-only"}},
	{"ch05_destination_fencing", "fence-new-first", []string{"fencing", "--case", "fence-new-first"}},
	{"ch05_destination_fencing", "fence-old-first", []string{"fencing", "--case", "fence-old-first"}},
	{"ch05_destination_fencing", "fence-and-receipt", []string{"fencing", "--case", "fence-and-receipt"}},
	{"ch06_rollback", "fence-rollback", []string{"fencing", "--case", "fence-rollback"}},
	{"ch07_incarnation", "incarnation", []string{"incarnation"}},
	{"ch08_nested_claims", "actors", []string{"actors"}},
	{"ch10_lock_service", "pause-past-ttl", []string{"lockservice", "--case", "pause-past-ttl"}},
}

// chapters is the folder that holds every chapter.
const chapters = "../.."

// TestChapterPicturesMatchTheRunner: every picture a chapter embeds is
// exactly what the runner draws for its command now. With -update the
// test writes them instead.
func TestChapterPicturesMatchTheRunner(t *testing.T) {
	for _, p := range pictures {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			args := append(slices.Clone(p.args), "--format", "svg")
			var stdout, stderr bytes.Buffer
			code := cli.Main(context.Background(), runner.Commands, args, &stdout, &stderr)
			assert.Equal(t, code, 0, "fencelab %s: %s", strings.Join(args, " "), &stderr)
			path := filepath.Join(chapters, p.chapter, "pictures", p.name+".svg")
			if golden.FlagUpdate() {
				assert.NilError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				assert.NilError(t, os.WriteFile(path, stdout.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			assert.NilError(t, err, "the picture %s is missing: run go test ./chapters/internal/pictures -update", path)
			if diff := firstDifference(stdout.String(), string(want)); diff != "" {
				t.Errorf("the picture %s has drifted from what `fencelab %s` draws now: %s; "+
					"run go test ./chapters/internal/pictures -update to draw it again, then look at it",
					path, strings.Join(args, " "), diff)
			}
		})
	}
}

// firstDifference describes the first line where got and want differ, or
// returns "" if they are the same.
func firstDifference(got, want string) string {
	if got == want {
		return ""
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		gl, wl := line(g, i), line(w, i)
		if gl != wl {
			return fmt.Sprintf("line %d is %q; the file has %q", i+1, gl, wl)
		}
	}
	return "they differ"
}

func line(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(no line)"
}

// embed is a picture embedded in a chapter text, and the caption under
// it, which starts with the command that draws it:
//
//	![what it shows](pictures/NAME.svg)
//
//	*`fencelab ARGS --format svg`: what to see in it.*
var embed = regexp.MustCompile(`!\[([^\]]*)\]\(pictures/([^)]+)\.svg\)` + "(?:\n\n\\*`([^`]*)`)?")

// TestEveryEmbeddedPictureIsListed: the chapter texts embed exactly the
// pictures the table lists, each in its own chapter, each with a caption
// that names the command the table draws it with; and every file in a
// pictures folder is one of them. A picture the table does not list
// would never be checked against the runner.
func TestEveryEmbeddedPictureIsListed(t *testing.T) {
	listed := map[string]string{} // the command that draws each picture
	for _, p := range pictures {
		listed[p.chapter+"/"+p.name] = "fencelab " + strings.Join(p.args, " ") + " --format svg"
	}
	embedded := map[string]bool{}
	readmes, err := filepath.Glob(filepath.Join(chapters, "ch*", "README.md"))
	assert.NilError(t, err)
	for _, readme := range readmes {
		text, err := os.ReadFile(readme)
		assert.NilError(t, err)
		chapter := filepath.Base(filepath.Dir(readme))
		for _, m := range embed.FindAllStringSubmatch(string(text), -1) {
			key := chapter + "/" + m[2]
			command, ok := listed[key]
			assert.Check(t, ok, "%s embeds pictures/%s.svg, which the table in pictures_test.go does not list", readme, m[2])
			assert.Check(t, strings.TrimSpace(m[1]) != "", "%s embeds pictures/%s.svg without a description", readme, m[2])
			assert.Check(t, !ok || m[3] == command, "%s: the caption of pictures/%s.svg names %q; the picture is drawn by %q", readme, m[2], m[3], command)
			embedded[key] = true
		}
	}
	for _, p := range pictures {
		key := p.chapter + "/" + p.name
		assert.Check(t, embedded[key], "the picture %s is listed but no chapter text embeds it", key)
	}
	files, err := filepath.Glob(filepath.Join(chapters, "ch*", "pictures", "*"))
	assert.NilError(t, err)
	for _, f := range files {
		key := filepath.Base(filepath.Dir(filepath.Dir(f))) + "/" + strings.TrimSuffix(filepath.Base(f), ".svg")
		_, ok := listed[key]
		assert.Check(t, ok, "%s is in a pictures folder but not in the table: nothing checks it", f)
	}
}
