// Command terraform-provider-tfgov is the tfgov Terraform provider.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	rtdebug "runtime/debug"
	"runtime/pprof"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/tfgov/terraform-provider-tfgov/internal/provider"
)

// version is set by the release build (goreleaser's ldflags).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers such as delve")
	flag.Parse()

	// A provider process lives for one Terraform operation and holds a few
	// MB: with Go's default GOGC=100 it spent a quarter of its CPU
	// collecting garbage (profiled under Terraform). Collect at 5× the live
	// heap instead, unless GOGC says otherwise.
	if os.Getenv("GOGC") == "" {
		rtdebug.SetGCPercent(400)
	}
	// TFGOV_CPU_PROFILE names a file to write a CPU profile of this
	// process to when it ends (make bench-scale's -cpuprofile).
	if name := os.Getenv("TFGOV_CPU_PROFILE"); name != "" {
		f, err := os.Create(name) //nolint:gosec // the profile goes where the developer asks
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
	}
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/tfgov/tfgov",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	pprof.StopCPUProfile()
	if err != nil {
		log.Fatal(err)
	}
}
