// Command terraform-provider-tfgov is the tfgov Terraform provider.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/pprof"
	"strings"

	frameworkprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/tfgov/terraform-provider-tfgov/internal/buildversion"
	"github.com/tfgov/terraform-provider-tfgov/internal/provider"
	"github.com/tfgov/terraform-provider-tfgov/internal/rpcrelease"
)

// version is set by the build's ldflags (buildversion.Of: else the module version, else "dev").
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

	quietUnlessAsked()
	// TFGOV_CPU_PROFILE: a CPU profile of this process, written at its end (bench-scale -cpuprofile).
	if name := os.Getenv("TFGOV_CPU_PROFILE"); name != "" {
		f, err := os.Create(name) // the profile goes where the developer asks
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
	}
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err := tf6server.Serve(providerAddress, func() tfprotov6.ProviderServer { return serve(provider.New(buildversion.Of(version))()) }, opts...)
	pprof.StopCPUProfile()
	if err != nil {
		log.Fatal(err)
	}
}

// serve is the server Terraform talks to; without rpcrelease when the framework releases each
// RPC's context (DESIGN.md "Releasing each RPC's context").
func serve(p frameworkprovider.Provider) tfprotov6.ProviderServer {
	return rpcrelease.Wrap(providerserver.NewProtocol6(p)())
}

// providerAddress is the provider's source address, as served.
const providerAddress = "registry.terraform.io/tfgov/tfgov"

// quietUnlessAsked turns the SDK's and the provider's logs off unless a TF_LOG* variable is set:
// terraform-plugin-go defaults both to TRACE, lines Terraform drops unless TF_LOG is set, which
// cost 1.3x hashicorp/tfe's CPU per create (PERFORMANCE.md "Where requests and CPU go").
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

// quietVariables: the SDK's subsystems inherit TF_LOG_SDK; terraform-plugin-go reads
// TF_LOG_PROVIDER_<type>, not TF_LOG_PROVIDER, in the provider's process.
var quietVariables = []string{"TF_LOG_SDK", "TF_LOG_PROVIDER_TFGOV"}
