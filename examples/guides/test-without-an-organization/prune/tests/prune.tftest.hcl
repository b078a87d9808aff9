# The apply runs the dry run; the plan after it reads the pool's tokens
# again: a dry run revokes nothing.

# Only against tfgov-sandbox: run without `tfgov-sandbox ... --`, in a shell
# holding a real organization's credentials, the provider refuses that host
# when it is configured, before it reads or writes anything there.
provider "tfgov" {
  sandbox_only = true
}

run "dry_run" {}

run "nothing_revoked" {
  command = plan

  assert {
    condition     = contains(output.token_descriptions, "build agent 1 (decommissioned)")
    error_message = "The dry run revoked the token unused for 90 days."
  }

  assert {
    condition     = length(output.token_descriptions) == 2
    error_message = "The pool does not hold the seed's two tokens."
  }
}
