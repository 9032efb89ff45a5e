package discover

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

func TestURLOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    *mdns.ServiceEntry
		want string
	}{
		{"opencode", &mdns.ServiceEntry{Name: "opencode-4096._http._tcp.local.", AddrV4: net.IPv4(192, 168, 1, 7), Port: 4096, InfoFields: []string{"path=/"}}, "http://192.168.1.7:4096"},
		{"behind a path", &mdns.ServiceEntry{Name: "opencode-80._http._tcp.local.", AddrV4: net.IPv4(10, 0, 0, 2), Port: 80, InfoFields: []string{"path=/oc/"}}, "http://10.0.0.2:80/oc"},
		{"ipv6", &mdns.ServiceEntry{Name: "opencode-4096._http._tcp.local.", AddrV6IPAddr: &net.IPAddr{IP: net.ParseIP("fe80::1")}, Port: 4096}, "http://[fe80::1]:4096"},
		{"another web server", &mdns.ServiceEntry{Name: "printer._http._tcp.local.", AddrV4: net.IPv4(10, 0, 0, 3), Port: 80}, ""},
		{"no address", &mdns.ServiceEntry{Name: "opencode-4096._http._tcp.local.", Port: 4096}, ""},
		{"no port", &mdns.ServiceEntry{Name: "opencode-4096._http._tcp.local.", AddrV4: net.IPv4(10, 0, 0, 3)}, ""},
		{"nil", nil, ""},
	} {
		got, ok := URLOf(tc.e)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}

// TestWatchFindsAnnounced announces a server the way `opencode serve
// --mdns` does (service _http._tcp, name opencode-<port>, path=/) on
// this host and watches for it: it is reported, once.
func TestWatchFindsAnnounced(t *testing.T) {
	port := 40000 + os.Getpid()%20000
	svc, err := mdns.NewMDNSService(fmt.Sprintf("opencode-%d", port), Service, "", "opencode.local.", port,
		[]net.IP{net.IPv4(127, 0, 0, 1)}, []string{"path=/"})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mdns.NewServer(&mdns.Config{Zone: svc, Logger: log.New(io.Discard, "", 0)})
	if err != nil {
		t.Fatalf("announce: %v", err)
	}
	defer func() { _ = srv.Shutdown() }()
	want := fmt.Sprintf("http://127.0.0.1:%d", port)
	const every = Wait + time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 4*every)
	defer cancel()
	var mu sync.Mutex
	count := 0
	go Watch(ctx, every, func(u string) {
		mu.Lock()
		defer mu.Unlock()
		if u == want {
			count++
		}
	})
	testwait.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return count > 0 }, 3*every, "the announced server")
	<-ctx.Done() // at least two more rounds of asking
	mu.Lock()
	defer mu.Unlock()
	if count != 1 {
		t.Errorf("reported %d times, want once", count)
	}
}

// TestWatchReportsAtMostMaxFound: a network announcing ever more
// servers (anyone on it may) gets MaxFound of them shown, no more, each
// once.
func TestWatchReportsAtMostMaxFound(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rounds := 0
	ask := func(context.Context) []string {
		rounds++
		if rounds == 5 {
			cancel()
		}
		var urls []string
		for i := range 100 {
			urls = append(urls, fmt.Sprintf("http://10.0.0.1:%d", 1000*rounds+i))
		}
		return urls
	}
	seen := map[string]int{}
	watch(ctx, time.Millisecond, ask, func(u string) { seen[u]++ })
	if len(seen) != MaxFound {
		t.Errorf("%d servers reported over %d rounds of 100, want %d", len(seen), rounds, MaxFound)
	}
	for u, n := range seen {
		if n != 1 {
			t.Errorf("%s reported %d times", u, n)
		}
	}
}
