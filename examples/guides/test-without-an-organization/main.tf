# A small governance configuration: a policy with its code, team access,
# a module test variable and an agent token. Its IDs come from variables,
# set by TF_VAR_ environment variables: the sandbox's seed file (seed.json)
# exports the same IDs as the real organization has.
terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

# Reads TFE_ADDRESS (or TFE_HOSTNAME), TFE_TOKEN and TFE_ORGANIZATION.
provider "tfgov" {}

variable "platform_team_id" {
  type        = string
  description = "Team that writes to the workspace."
}

variable "developers_team_id" {
  type        = string
  description = "Team that reads the workspace."
}

variable "workspace_id" {
  type        = string
  description = "Workspace the teams get access to."
}

variable "agent_pool_id" {
  type        = string
  description = "Agent pool of the build agents."
}

variable "module_name" {
  type        = string
  description = "Private registry module whose tests get a variable."
}

variable "module_provider" {
  type        = string
  description = "Its provider."
}

variable "developers_access" {
  type        = string
  description = "The developers' access to the workspace."
  default     = "read"
}

resource "tfgov_policy" "limit_destroys" {
  name              = "limit-destroys"
  description       = "A run destroys at most five resources."
  enforcement_level = "soft-mandatory"
}

resource "tfgov_policy_upload" "limit_destroys" {
  policy_id = tfgov_policy.limit_destroys.id
  source    = "${path.module}/policies/limit-destroys.sentinel"
}

resource "tfgov_team_access" "platform" {
  team_id      = var.platform_team_id
  workspace_id = var.workspace_id
  access       = "write"
}

resource "tfgov_team_access" "developers" {
  team_id      = var.developers_team_id
  workspace_id = var.workspace_id
  access       = var.developers_access
}

resource "tfgov_module_test_variable" "region" {
  module_name     = var.module_name
  module_provider = var.module_provider
  key             = "TF_VAR_region"
  value           = "eu-west-1"
}

resource "tfgov_agent_token" "build" {
  agent_pool_id = var.agent_pool_id
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
