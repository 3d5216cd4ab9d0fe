package faultproxy

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/assert/cmp"
)

// recorder is a target that echoes every line it receives and, once a
// connection ends, reports everything that connection brought.
type recorder struct {
	ln       net.Listener
	received chan string // one value per connection, when it ends
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	assert.NilError(t, err)
	r := &recorder{ln: ln, received: make(chan string, 16)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				var got []byte
				sc := bufio.NewScanner(c)
				for sc.Scan() {
					got = append(got, sc.Bytes()...)
					got = append(got, '\n')
					if _, err := c.Write(append(sc.Bytes(), '\n')); err != nil {
						break
					}
				}
				r.received <- string(got)
			}()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return r
}

func startProxy(t *testing.T, target string) *Proxy {
	t.Helper()
	p, err := Listen("127.0.0.1:0", target)
	assert.NilError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

// waitUntilTaken waits until the proxy has taken n connections from its
// listener: Dial returns once the kernel has the connection, which can be
// before the proxy's accept loop sees it.
func waitUntilTaken(t *testing.T, p *Proxy, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for p.open() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the proxy took %d connections in 10 s, want %d", p.open(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// say writes line to c and reads back the echo.
func say(t *testing.T, c net.Conn, r *bufio.Reader, line string) string {
	t.Helper()
	_, err := io.WriteString(c, line+"\n")
	assert.NilError(t, err)
	echo, err := r.ReadString('\n')
	assert.NilError(t, err, "no echo of %q through the proxy", line)
	return echo
}

// TestTrafficPassesUntilACut: a connection through the proxy carries
// bytes both ways, as if the proxy were not there.
func TestTrafficPassesUntilACut(t *testing.T) {
	rec := newRecorder(t)
	p := startProxy(t, rec.ln.Addr().String())
	c, err := net.Dial("tcp", p.Addr())
	assert.NilError(t, err)
	r := bufio.NewReader(c)
	assert.Equal(t, say(t, c, r, "ping"), "ping\n")
	c.Close()
	assert.Equal(t, <-rec.received, "ping\n")
}

// TestCutDropsEveryByteOfAnOpenConnection: what a client sends during a
// cut never reaches the target, and the connection the cut touched is
// closed when the traffic is restored.
func TestCutDropsEveryByteOfAnOpenConnection(t *testing.T) {
	rec := newRecorder(t)
	p := startProxy(t, rec.ln.Addr().String())
	c, err := net.Dial("tcp", p.Addr())
	assert.NilError(t, err)
	r := bufio.NewReader(c)
	assert.Equal(t, say(t, c, r, "before"), "before\n")

	p.Cut()
	_, err = io.WriteString(c, "during\n")
	assert.NilError(t, err, "a cut must be silent: the client's write is accepted")
	p.Restore()

	_, err = r.ReadString('\n')
	assert.Check(t, err != nil, "the connection the cut touched must be closed at restore")
	assert.Equal(t, <-rec.received, "before\n", "the target received bytes sent during the cut")
}

// TestConnectionMadeDuringACutNeverReachesTheTarget: a client that
// connects during a cut is accepted (a partition refuses nothing), but
// its connection is never joined to the target, and a connection made
// after the restore works again.
func TestConnectionMadeDuringACutNeverReachesTheTarget(t *testing.T) {
	rec := newRecorder(t)
	p := startProxy(t, rec.ln.Addr().String())
	p.Cut()
	held, err := net.Dial("tcp", p.Addr())
	assert.NilError(t, err, "a cut must not refuse connections")
	_, err = io.WriteString(held, "lost\n")
	assert.NilError(t, err)
	waitUntilTaken(t, p, 1)
	p.Restore()
	_, err = bufio.NewReader(held).ReadString('\n')
	assert.Check(t, err != nil, "the connection held by the cut must be closed at restore")

	c, err := net.Dial("tcp", p.Addr())
	assert.NilError(t, err)
	assert.Equal(t, say(t, c, bufio.NewReader(c), "after"), "after\n")
	c.Close()
	assert.Check(t, cmp.Equal(<-rec.received, "after\n"), "the target saw a connection other than the one made after the restore")
}

// TestCloseEndsEveryConnection: Close closes the connections it carries
// and stops accepting.
func TestCloseEndsEveryConnection(t *testing.T) {
	rec := newRecorder(t)
	p := startProxy(t, rec.ln.Addr().String())
	c, err := net.Dial("tcp", p.Addr())
	assert.NilError(t, err)
	r := bufio.NewReader(c)
	say(t, c, r, "hello")
	assert.NilError(t, p.Close())
	_, err = r.ReadString('\n')
	assert.Check(t, err != nil, "a connection survived Close")
	_, err = net.Dial("tcp", p.Addr())
	assert.Check(t, err != nil, "the proxy still accepts after Close")
}
