# A small governance configuration, by names only: a policy with its code
# and the platform team's access, both made by hand before tfgov and
# adopted here with import blocks; the developers' access; a lock-down of
# the workspace to these two teams; a module test variable and an agent
# token. The sandbox's seed file (seed.json) declares the organization
# these names are found in, hand-made objects included.
terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

# No hostname, address or token here: they come from the environment
# (TFE_ADDRESS or TFE_HOSTNAME, TFE_TOKEN, TFE_ORGANIZATION), which the
# sandbox sets for terraform test and your pipeline sets for the real
# organization. A host written here would win over the environment, and
# terraform test would apply to that host instead of the sandbox.
provider "tfgov" {}

variable "developers_access" {
  type        = string
  description = "The developers' access to the payments workspace."
  default     = "read"
}

data "tfgov_workspace" "payments" {
  name = "payments"
}

data "tfgov_team" "platform" {
  name = "platform"
}

data "tfgov_team" "developers" {
  name = "developers"
}

data "tfgov_agent_pool" "build" {
  name = "build"
}

data "tfgov_registry_module" "network" {
  module_name     = "network"
  module_provider = "aws"
}

# Made by hand, adopted: the import IDs are names.
import {
  to = tfgov_policy.limit_destroys
  id = "acme/limit-destroys"
}

import {
  to = tfgov_team_access.platform
  id = "acme/payments/platform"
}

resource "tfgov_policy" "limit_destroys" {
  name              = "limit-destroys"
  description       = "A run destroys at most five resources."
  enforcement_level = "soft-mandatory"
  source            = "${path.module}/policies/limit-destroys.sentinel"
}

resource "tfgov_team_access" "platform" {
  team_id      = data.tfgov_team.platform.id
  workspace_id = data.tfgov_workspace.payments.id
  access       = "write"
}

resource "tfgov_team_access" "developers" {
  team_id      = data.tfgov_team.developers.id
  workspace_id = data.tfgov_workspace.payments.id
  access       = var.developers_access
}

# Only these two teams may hold access to the workspace: any other team's
# access (made by hand, say) is removed on apply.
resource "tfgov_workspace_team_access_exclusive" "payments" {
  workspace_id = data.tfgov_workspace.payments.id
  team_ids     = [tfgov_team_access.platform.team_id, tfgov_team_access.developers.team_id]
}

resource "tfgov_module_test_variable" "region" {
  module_name     = data.tfgov_registry_module.network.module_name
  module_provider = data.tfgov_registry_module.network.module_provider
  key             = "TF_VAR_region"
  value           = "eu-west-1"
}

resource "tfgov_agent_token" "build" {
  agent_pool_id = data.tfgov_agent_pool.build.id
  description   = "Build agents"
}

output "agent_token" {
  description = "The build agents' token."
  value       = tfgov_agent_token.build.token
  sensitive   = true
}

output "developers_team_access_id" {
  description = "ID of the developers' team access."
  value       = tfgov_team_access.developers.id
}
