# terraform test applies each run block against the sandbox, checks its
# assertions, and destroys what it made (and adopted) at the end.

# Only against tfgov-sandbox: run without `tfgov-sandbox ... --`, in a shell
# holding a real organization's credentials, the provider refuses that host
# when it is configured, before it reads or writes anything there.
provider "tfgov" {
  sandbox_only = true
}

run "apply" {
  assert {
    condition     = tfgov_policy.limit_destroys.content_sha256 == filesha256("${path.module}/policies/limit-destroys.sentinel")
    error_message = "The adopted policy's code is not policies/limit-destroys.sentinel."
  }

  assert {
    condition     = tfgov_team_access.platform.access == "write" && tfgov_team_access.developers.access == "read"
    error_message = "The teams do not have the access they should."
  }

  assert {
    condition     = length(tfgov_workspace_team_access_exclusive.payments.removed_team_ids) == 1
    error_message = "The lock-down did not remove the one hand-made grant of another team."
  }

  assert {
    condition     = tfgov_module_test_variable.region.value == "eu-west-1"
    error_message = "The module's tests do not plan for eu-west-1."
  }

  assert {
    condition     = startswith(tfgov_agent_token.build.id, "at-")
    error_message = "No agent token was made."
  }
}

# The same configuration with another variable: an in-place update, and
# the workspace holds no grant the configuration does not declare.
run "developers_write" {
  variables {
    developers_access = "write"
  }

  assert {
    condition     = tfgov_team_access.developers.access == "write"
    error_message = "The developers' access was not raised to write."
  }

  assert {
    condition     = tfgov_team_access.developers.id == run.apply.developers_team_access_id
    error_message = "The developers' team access was replaced, not updated."
  }

  assert {
    condition     = length(tfgov_workspace_team_access_exclusive.payments.removed_team_ids) == 0
    error_message = "The workspace holds access the configuration does not declare."
  }
}
