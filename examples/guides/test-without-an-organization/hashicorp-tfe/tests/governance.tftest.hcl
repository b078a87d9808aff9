run "apply" {
  assert {
    condition     = tfe_policy.limit_destroys.enforce_mode == "soft-mandatory"
    error_message = "The policy is not soft-mandatory."
  }

  assert {
    condition     = tfe_team_access.platform.access == "write"
    error_message = "The platform team cannot write to the workspace."
  }

  assert {
    condition     = tfe_test_variable.region.value == "eu-west-1"
    error_message = "The module's tests do not plan for eu-west-1."
  }

  assert {
    condition     = startswith(tfe_agent_token.build.id, "at-")
    error_message = "No agent token was made."
  }
}
