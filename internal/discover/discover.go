// Package discover finds OpenCode servers announced on the local network
// by `opencode serve --mdns`, through mDNS (github.com/hashicorp/mdns).
//
// OpenCode announces an "_http._tcp" service named "opencode-<port>"
// (host opencode.local unless --mdns-domain says otherwise) with the TXT
// record path=/. Watch asks the network again every so often, since
// servers come and go, and reports each server once.
package discover

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/mdns"
)

// Service is what OpenCode announces itself as.
const Service = "_http._tcp"

// namePrefix starts the instance name of every OpenCode server.
const namePrefix = "opencode-"

// Every is how often octop asks again; Wait how long each asking listens.
const (
	Every = 10 * time.Second
	Wait  = 2 * time.Second
)

// MaxFound is the most servers Watch reports: each becomes a stream and a
// screen of its own, and anyone on the network may announce thousands.
const MaxFound = 32

// Watch asks the local network for OpenCode servers now and every so
// often (Every, for octop) until ctx ends, calling found with each new
// server's URL, once, for the first MaxFound. It returns when ctx is done;
// a failed query (no multicast, say) is tried again next round.
func Watch(ctx context.Context, every time.Duration, found func(url string)) {
	watch(ctx, every, query, found)
}

// watch is Watch asking ask.
func watch(ctx context.Context, every time.Duration, ask func(context.Context) []string, found func(url string)) {
	seen := map[string]bool{}
	for {
		for _, u := range ask(ctx) {
			if !seen[u] && len(seen) < MaxFound {
				seen[u] = true
				found(u)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

// query asks once and returns the URLs of the OpenCode servers that answered.
func query(ctx context.Context) []string {
	entries := make(chan *mdns.ServiceEntry, 32)
	p := mdns.DefaultParams(Service)
	p.Entries = entries
	p.Timeout = Wait
	p.DisableIPv6 = true
	p.Logger = log.New(io.Discard, "", 0) // the library logs every bad packet
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = mdns.Query(p)
	}()
	var urls []string
	keep := func(e *mdns.ServiceEntry) {
		// Answers repeat: each server is kept once, and no more than
		// Watch can report.
		if u, ok := URLOf(e); ok && len(urls) < MaxFound && !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	for {
		select {
		case e := <-entries:
			keep(e)
		case <-done:
			for {
				select {
				case e := <-entries:
					keep(e)
				default:
					return urls
				}
			}
		case <-ctx.Done():
			return urls
		}
	}
}

// URLOf is the URL of the OpenCode server an mDNS answer announces; ok is
// false for any other service, or an answer without address or port.
func URLOf(e *mdns.ServiceEntry) (string, bool) {
	if e == nil || !strings.HasPrefix(e.Name, namePrefix) || e.Port <= 0 {
		return "", false
	}
	ip := e.AddrV4
	if ip == nil && e.AddrV6IPAddr != nil {
		ip = e.AddrV6IPAddr.IP
	}
	if ip == nil {
		return "", false
	}
	path := ""
	for _, f := range e.InfoFields {
		if p, ok := strings.CutPrefix(f, "path="); ok {
			path = strings.TrimRight(p, "/")
		}
	}
	return fmt.Sprintf("http://%s%s", net.JoinHostPort(ip.String(), strconv.Itoa(e.Port)), path), true
}
