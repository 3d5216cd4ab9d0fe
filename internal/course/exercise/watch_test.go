package exercise

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

func TestSavedIgnoresScratchFilesAndOtherKinds(t *testing.T) {
	t.Parallel()
	cases := map[string]bool{
		"internal/mailbox/complete.go":      true,
		"chapters/ch02/testdata/x.txtar":    true,
		"internal/mailbox/.complete.go.swp": false,
		"internal/mailbox/complete.go~":     false,
		"internal/mailbox/#complete.go#":    false,
		"chapters/ch02/README.md":           false,
	}
	for name, want := range cases {
		got := saved(fsnotify.Event{Name: name, Op: fsnotify.Write})
		assert.Check(t, cmp.Equal(got, want), name)
	}
	assert.Check(t, !saved(fsnotify.Event{Name: "a.go", Op: fsnotify.Chmod}), "a mode change is no save")
}

func TestWatchCallsOnceForABurstAndStopsWhenAsked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sub := filepath.Join(dir, "internal")
	assert.NilError(t, os.MkdirAll(sub, 0o755))
	calls := make(chan string, 10)
	firsts := make(chan struct{}, 10)
	done := make(chan error, 1)
	go func() {
		done <- Watch(t.Context(), []string{dir}, func(_ context.Context, file string) bool {
			if file == "" {
				firsts <- struct{}{} // the first call, made once the watches are in place
				return false
			}
			calls <- file
			return true
		})
	}()
	file := filepath.Join(sub, "a.go")
	// Write until the watcher is up and sees it; each burst is one call.
	deadline := time.Now().Add(10 * time.Second)
	var got string
	for got == "" && time.Now().Before(deadline) {
		assert.NilError(t, os.WriteFile(file, []byte("package a\n"), 0o644))
		assert.NilError(t, os.WriteFile(file, []byte("package a\n\n"), 0o644))
		select {
		case got = <-calls:
		case <-time.After(300 * time.Millisecond):
		}
	}
	assert.Check(t, cmp.Equal(got, file))
	select {
	case err := <-done:
		assert.NilError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Watch did not return after onSave asked it to stop")
	}
	assert.Check(t, cmp.Len(calls, 0), "a burst of writes is one call")
	assert.Check(t, cmp.Len(firsts, 1), "Watch makes its first call, with no file, once")
}
