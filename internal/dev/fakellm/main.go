// Command fakellm serves the scripted fake model of package
// github.com/octop-dev/octop/internal/testkit/fakellm on a TCP address, for running
// `opencode serve` by hand against it:
//
//	go run ./internal/dev/fakellm -addr 127.0.0.1:4599
//
// Point an OpenCode provider's baseURL at http://ADDR/v1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/octop-dev/octop/internal/testkit/fakellm"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:4599", "address to listen on")
	quiet := flag.Bool("q", false, "do not log one line per request")
	flag.Parse()

	opts := fakellm.Options{}
	if !*quiet {
		opts.Logf = log.Printf
	}
	srv := &http.Server{Addr: *addr, Handler: fakellm.New(opts), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	log.Printf("fakellm: serving http://%s/v1/chat/completions", *addr)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(os.Stderr, "fakellm: cannot serve on %s: %v\n", *addr, err)
		os.Exit(1)
	}
}
