package weakening

// This file writes a go command overlay: the weakened copy of the target in
// a scratch directory and the JSON that tells `go test -overlay` to build
// with it, so the working tree is never touched.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Overlay is a weakening written out for `go test -overlay`.
type Overlay struct {
	JSON   string // the overlay file to pass to -overlay
	Target string // the absolute path of the file it replaces
	Copy   string // the absolute path of the weakened copy the build reads instead
}

// overlayFile is the go command's -overlay format.
type overlayFile struct {
	Replace map[string]string
}

// WriteOverlay reads w's target under root, applies the edits, and writes
// the weakened copy and the overlay JSON into dir (which must exist). A
// before-text that does not match returns a *MatchError.
func (w *Weakening) WriteOverlay(root, dir string) (Overlay, error) {
	target, err := filepath.Abs(filepath.Join(root, filepath.FromSlash(w.File)))
	if err != nil {
		return Overlay{}, fmt.Errorf("overlay %s: %w", w.Name, err)
	}
	src, err := os.ReadFile(target)
	if err != nil {
		return Overlay{}, fmt.Errorf("overlay %s: %w", w.Name, err)
	}
	weak, err := w.Apply(src)
	if err != nil {
		return Overlay{}, fmt.Errorf("overlay %s: %w", w.Name, err)
	}
	ov := Overlay{
		JSON:   filepath.Join(dir, "overlay.json"),
		Target: target,
		Copy:   filepath.Join(dir, filepath.Base(target)),
	}
	if err := os.WriteFile(ov.Copy, weak, 0o644); err != nil {
		return Overlay{}, fmt.Errorf("overlay %s: %w", w.Name, err)
	}
	js, err := json.Marshal(overlayFile{Replace: map[string]string{target: ov.Copy}})
	if err != nil {
		return Overlay{}, fmt.Errorf("overlay %s: %w", w.Name, err)
	}
	if err := os.WriteFile(ov.JSON, js, 0o644); err != nil {
		return Overlay{}, fmt.Errorf("overlay %s: %w", w.Name, err)
	}
	return ov, nil
}
