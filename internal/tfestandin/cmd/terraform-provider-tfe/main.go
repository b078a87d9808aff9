// Command terraform-provider-tfe serves the test-only stand-in for
// hashicorp/tfe (package tfestandin) at registry.terraform.io/hashicorp/tfe.
// Tests build it and install it with a dev_overrides CLI configuration; it
// is never part of a tfgov release.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	"github.com/tfgov/terraform-provider-tfgov/internal/tfestandin"
)

func main() {
	server, err := tfestandin.Server(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	if err := tf5server.Serve(tfestandin.Address, server); err != nil {
		log.Fatal(err)
	}
}
