package exercise

// This file watches the working tree for saves, with fsnotify, and folds
// the burst of events one save makes into one call. A save that comes
// while the previous call still runs cancels it: only the newest code is
// worth grading.

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Quiet is how long Watch waits after an event for the next one before
// it calls back: editors write a file in several steps.
const Quiet = 150 * time.Millisecond

// Watch calls onSave once with file "" as soon as it watches dirs
// (recursively, hidden folders aside), then with the last file saved each
// time .go or .txtar files are saved, until ctx is done or onSave returns
// true. The first call comes only once the watches are in place, so a
// save made as soon as it answers is never missed. Each call gets a
// context cancelled by the next save or by ctx. Watch returns once no
// call runs any more.
func Watch(ctx context.Context, dirs []string, onSave func(ctx context.Context, file string) (stop bool)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	for _, d := range dirs {
		if err := addTree(w, d); err != nil {
			return err
		}
	}

	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var (
		last string
		cur  = startCall(ctx, "", onSave) // the onSave call running; nil if none
	)
	defer func() { _ = cur.stop() }()
	for {
		var finished chan bool
		if cur != nil {
			finished = cur.done
		}
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			return err
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Has(fsnotify.Create) {
				if info, err := os.Stat(ev.Name); err == nil && info.IsDir() && !hidden(filepath.Base(ev.Name)) {
					_ = addTree(w, ev.Name)
				}
			}
			if saved(ev) {
				last = ev.Name
				timer.Reset(Quiet)
			}
		case <-timer.C:
			if cur.stop() {
				return nil // the call cancelled by this save had already said stop
			}
			cur = startCall(ctx, last, onSave)
		case stop := <-finished:
			cur = nil
			if stop {
				return nil
			}
		}
	}
}

// call is one onSave call running in its own goroutine.
type call struct {
	cancel context.CancelFunc
	done   chan bool // receives onSave's answer
}

// startCall runs onSave(file) under a context of its own.
func startCall(ctx context.Context, file string, onSave func(context.Context, string) bool) *call {
	ctx, cancel := context.WithCancel(ctx)
	c := &call{cancel: cancel, done: make(chan bool, 1)}
	go func() {
		defer cancel()
		c.done <- onSave(ctx, file)
	}()
	return c
}

// stop cancels the call, waits for it to return, and returns its answer;
// a nil call is a no-op that answers false.
func (c *call) stop() bool {
	if c == nil {
		return false
	}
	c.cancel()
	return <-c.done
}

// saved reports whether ev is a save worth grading: a Go or txtar file
// written, created, renamed or removed, not an editor's scratch file.
func saved(ev fsnotify.Event) bool {
	if !ev.Has(fsnotify.Write) && !ev.Has(fsnotify.Create) && !ev.Has(fsnotify.Rename) && !ev.Has(fsnotify.Remove) {
		return false
	}
	base := filepath.Base(ev.Name)
	if hidden(base) || strings.HasPrefix(base, "#") || strings.HasSuffix(base, "~") {
		return false
	}
	return strings.HasSuffix(base, ".go") || strings.HasSuffix(base, ".txtar")
}

// hidden reports whether a file or folder name is hidden (drill's own
// state folder among them).
func hidden(name string) bool { return strings.HasPrefix(name, ".") }

// addTree watches dir and every folder below it, hidden ones aside.
func addTree(w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && hidden(d.Name()) {
			return filepath.SkipDir
		}
		return w.Add(p)
	})
}
