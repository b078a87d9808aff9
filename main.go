// Command terraform-provider-tfgov is the tfgov Terraform provider.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	rtdebug "runtime/debug"
	"runtime/pprof"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/tfgov/terraform-provider-tfgov/internal/buildversion"
	"github.com/tfgov/terraform-provider-tfgov/internal/provider"
)

// version is set by the build: goreleaser's ldflags from the tag, make
// build's from git describe (buildversion.Of falls back to the module
// version of a go install, else "dev").
var version = "dev"

func main() {
	var debug, showVersion bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers such as delve")
	flag.BoolVar(&showVersion, "version", false, "print the provider's version and exit")
	flag.Parse()
	if showVersion {
		fmt.Println("terraform-provider-tfgov", buildversion.Of(version))
		return
	}

	// A provider process lives for one walk of one Terraform operation:
	// with Go's default GOGC=100 it spent a quarter of its CPU collecting
	// garbage (profiled under Terraform). Collect at 5× the live heap
	// instead, unless GOGC says otherwise. The live heap grows with the
	// walk's RPCs (terraform-plugin-framework keeps each one's context until
	// the provider is stopped): a plan of 1,000 policies peaks at 251 MB
	// against 149 MB at GOGC=100 (PERFORMANCE.md, "Memory").
	if os.Getenv("GOGC") == "" {
		rtdebug.SetGCPercent(400)
	}
	quietUnlessAsked()
	// TFGOV_CPU_PROFILE names a file to write a CPU profile of this
	// process to when it ends (make bench-scale's -cpuprofile).
	if name := os.Getenv("TFGOV_CPU_PROFILE"); name != "" {
		f, err := os.Create(name) // the profile goes where the developer asks
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
	}
	err := providerserver.Serve(context.Background(), provider.New(buildversion.Of(version)), providerserver.ServeOpts{
		Address: providerAddress,
		Debug:   debug,
	})
	pprof.StopCPUProfile()
	if err != nil {
		log.Fatal(err)
	}
}

// providerAddress is the provider's source address, as served.
const providerAddress = "registry.terraform.io/tfgov/tfgov"

// quietUnlessAsked turns the provider's and the SDK's logs off when no
// TF_LOG* variable asks for any. terraform-plugin-go defaults both to TRACE,
// so a provider started by Terraform writes every framework trace line (15
// plan modifier and 13 validator calls per agent token, each logged twice)
// and every line of its own to Terraform, which discards them all unless
// TF_LOG is set: measured against hashicorp/tfe, producing them made
// tfgov's CPU per agent token create 1.3x the incumbent's instead of 1.0x.
// The SDK's level is TF_LOG_SDK (its subsystems inherit it); the
// provider's own is TF_LOG_PROVIDER_TFGOV (terraform-plugin-go reads
// TF_LOG_PROVIDER_<type>, not TF_LOG_PROVIDER, in the provider's process).
// Any TF_LOG* variable (TF_LOG, TF_LOG_PROVIDER, TF_LOG_SDK_FRAMEWORK,
// TF_LOG_PATH, ...) leaves logging as terraform-plugin-go sets it, so
// TF_LOG=trace shows everything as before.
func quietUnlessAsked() {
	for _, kv := range os.Environ() {
		if name, value, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TF_LOG") && value != "" {
			return
		}
	}
	for _, name := range quietVariables {
		_ = os.Setenv(name, "OFF")
	}
}

// quietVariables are the variables quietUnlessAsked sets to OFF.
var quietVariables = []string{"TF_LOG_SDK", "TF_LOG_PROVIDER_TFGOV"}
