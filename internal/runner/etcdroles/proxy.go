package etcdroles

// This file holds the proxy role: one fault-injecting proxy per member,
// cut and restored together on the parent's word.

import (
	"context"
	"fmt"
	"strconv"

	"github.com/fencelab/fencelab/internal/runner/faultproxy"
	"github.com/fencelab/fencelab/internal/runner/lockservicelab"
	"github.com/fencelab/fencelab/internal/runner/worker"
)

func runProxy(ctx context.Context, args []string, link *worker.Link) error {
	var a lockservicelab.ProxyArgs
	if err := lockservicelab.Decode(args, &a); err != nil {
		return err
	}
	if len(a.Ports) != len(a.Targets) {
		return fmt.Errorf("proxy: %d ports for %d targets", len(a.Ports), len(a.Targets))
	}
	var proxies []*faultproxy.Proxy
	defer func() {
		for _, p := range proxies {
			p.Close()
		}
	}()
	for i := range a.Ports {
		p, err := faultproxy.Listen("127.0.0.1:"+strconv.Itoa(a.Ports[i]), "127.0.0.1:"+strconv.Itoa(a.Targets[i]))
		if err != nil {
			return err
		}
		proxies = append(proxies, p)
	}
	if err := link.Send(lockservicelab.LockReply{Result: "ready"}); err != nil {
		return err
	}
	return worker.Serve(link, func(req lockservicelab.ProxyRequest) (lockservicelab.LockReply, error) {
		for _, p := range proxies {
			switch req.Op {
			case "cut":
				p.Cut()
			case "restore":
				p.Restore()
			default:
				return lockservicelab.LockReply{}, fmt.Errorf("proxy: unknown request %q", req.Op)
			}
		}
		return lockservicelab.LockReply{Result: req.Op}, nil
	})
}
