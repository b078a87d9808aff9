# A workspace and a team made with hashicorp/tfe, governed with tfgov: the
# team's access, a policy with its code, the agent token of the workspace's
# build agents. One configuration, tested against the same seed file
# (../seed.json), which declares the organization and its agent pool,
# found here by name.
terraform {
  required_providers {
    tfe = {
      source  = "hashicorp/tfe"
      version = "~> 0.79"
    }
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

# Both read TFE_HOSTNAME, TFE_TOKEN and TFE_ORGANIZATION.
provider "tfe" {}
provider "tfgov" {}

data "tfgov_agent_pool" "build" {
  name = "build"
}

variable "billing_access" {
  type        = string
  description = "The billing team's access to its workspace."
  default     = "write"
}

resource "tfe_workspace" "billing" {
  name              = "billing"
  description       = "The billing service."
  auto_apply        = false
  queue_all_runs    = false
  working_directory = "service"
}

resource "tfe_team" "billing" {
  name       = "billing"
  visibility = "organization"
}

resource "tfgov_team_access" "billing" {
  team_id      = tfe_team.billing.id
  workspace_id = tfe_workspace.billing.id
  access       = var.billing_access
}

resource "tfgov_policy" "limit_destroys" {
  name              = "billing-limit-destroys"
  description       = "A run destroys at most five resources."
  enforcement_level = "soft-mandatory"
}

resource "tfgov_policy_upload" "limit_destroys" {
  policy_id = tfgov_policy.limit_destroys.id
  source    = "${path.module}/../policies/limit-destroys.sentinel"
}

resource "tfgov_agent_token" "build" {
  agent_pool_id = data.tfgov_agent_pool.build.id
  description   = "Build agents of ${tfe_workspace.billing.name}"
}
