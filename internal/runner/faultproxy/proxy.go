// Package faultproxy is a TCP proxy that can cut the traffic it carries
// and restore it: the network partition of chapter 10's partition case,
// between one worker and the etcd members, while that worker still
// reaches its other destination directly.
//
// A cut is silent, as a partition is: no connection is refused or reset.
// Bytes sent either way on a connection open during the cut are read and
// dropped; a connection the proxy takes from its listener during the cut
// is never joined to its target. (The kernel completes a client's connect
// before the proxy takes it, so a connect just before a Restore may be
// taken, and joined, after it; nothing it sent was dropped then.) Restore closes every connection the cut touched, since
// their streams lost bytes, and from then on passes traffic again, so the
// client reconnects as it would after a real partition healed.
package faultproxy

import (
	"io"
	"net"
	"sync"
)

// Proxy forwards every connection made to its address to one target.
type Proxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	cut    bool
	closed bool
	conns  map[*link]bool // every open connection and its target side
	wg     sync.WaitGroup
}

// link is one client connection and, unless it was made during a cut, its
// connection to the target.
type link struct {
	client, target net.Conn // target is nil for a connection held by a cut
	tainted        bool     // the cut dropped bytes of it, or held it
}

// Listen starts a proxy listening on addr (127.0.0.1:0 picks a free port)
// and forwarding to target.
func Listen(addr, target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, conns: map[*link]bool{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the address clients connect to.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Cut stops all traffic, both ways, on every connection, open or new,
// until Restore.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for l := range p.conns {
		l.tainted = true
	}
}

// Restore ends a cut: every connection the cut touched is closed, and
// traffic passes again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = false
	for l := range p.conns {
		if l.tainted {
			l.close()
			delete(p.conns, l)
		}
	}
}

// Close stops listening, closes every connection and waits until the
// proxy's goroutines have ended.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for l := range p.conns {
		l.close()
		delete(p.conns, l)
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}

// open is how many client connections the proxy has taken and not yet
// closed, held ones included.
func (p *Proxy) open() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.conns)
}

func (l *link) close() {
	l.client.Close()
	if l.target != nil {
		l.target.Close()
	}
}

// accept takes connections until the listener closes.
func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		p.wg.Add(1)
		go p.serve(c)
	}
}

// serve joins client to the target, or holds it if a cut is on.
func (p *Proxy) serve(client net.Conn) {
	defer p.wg.Done()
	l := &link{client: client}
	p.mu.Lock()
	held := p.cut
	if !held {
		p.mu.Unlock()
		t, err := net.Dial("tcp", p.target)
		if err != nil {
			client.Close() // the target is down: as it would be without the proxy
			return
		}
		p.mu.Lock()
		l.target = t
		l.tainted = p.cut // a cut that came while dialling
	} else {
		l.tainted = true
	}
	if p.closed {
		p.mu.Unlock()
		l.close()
		return
	}
	p.conns[l] = true
	p.mu.Unlock()
	if l.target == nil {
		// Held: read and drop until Restore or Close closes it.
		_, _ = io.Copy(io.Discard, client)
		return
	}
	done := make(chan struct{}, 2)
	go func() { p.pipe(l, l.target, client); done <- struct{}{} }()
	p.pipe(l, client, l.target)
	<-done
	p.mu.Lock()
	delete(p.conns, l)
	p.mu.Unlock()
}

// pipe copies from src to dst, dropping what it reads while l is
// tainted, until either side ends; then it closes both.
func (p *Proxy) pipe(l *link, dst, src net.Conn) {
	defer l.close()
	buf := make([]byte, 32*1024)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			drop := l.tainted
			p.mu.Unlock()
			if !drop {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
		}
		if err != nil {
			return // the peer closed its end, or Restore or Close did
		}
	}
}
