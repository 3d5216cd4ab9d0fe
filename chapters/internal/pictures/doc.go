// Package pictures keeps the chapters' pictures true to the runner. Each
// chapter text embeds SVG pictures of the runner's own runs
// (chapters/chNN_*/pictures/*.svg); the test in this package draws each
// of them again with `fencelab ... --format svg` and fails when one has
// drifted from what the runner draws now, and when a text embeds a
// picture the table does not list, or a listed picture is embedded
// nowhere.
//
// To add a picture: add a row to the table in pictures_test.go, run
//
//	go test ./chapters/internal/pictures -update
//
// which writes the file, look at it, and embed it in the chapter text
// beside what it shows, with a caption:
//
//	![What the picture shows, in a sentence.](pictures/NAME.svg)
package pictures
