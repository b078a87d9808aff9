provider "tfe" {}

# Only against tfgov-sandbox: run without `tfgov-sandbox ... --`, in a shell
# holding a real organization's credentials, the provider refuses that host
# when it is configured, before it reads or writes anything there.
provider "tfgov" {
  sandbox_only = true
}

run "apply" {
  assert {
    condition     = tfgov_team_access.billing.workspace_id == tfe_workspace.billing.id
    error_message = "The billing team's access is not to its workspace."
  }

  assert {
    condition     = tfgov_team_access.billing.access == "write"
    error_message = "The billing team cannot write to its workspace."
  }

  assert {
    condition     = !tfe_workspace.billing.queue_all_runs && tfe_workspace.billing.working_directory == "service"
    error_message = "The workspace's settings are not as configured."
  }

  assert {
    condition     = tfgov_policy.limit_destroys.enforcement_level == "soft-mandatory"
    error_message = "The policy is not soft-mandatory."
  }

  assert {
    condition     = startswith(tfgov_agent_token.build.id, "at-")
    error_message = "No agent token was made."
  }
}

# The team becomes an admin of its workspace: an update in place.
run "admin" {
  variables {
    billing_access = "admin"
  }

  assert {
    condition     = tfgov_team_access.billing.access == "admin" && tfgov_team_access.billing.permissions.run_tasks
    error_message = "The billing team is not an admin of its workspace."
  }
}
