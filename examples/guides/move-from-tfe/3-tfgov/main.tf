# After: tfgov only. The moved blocks may stay (they do nothing once the
# state holds no tfe_* resource), or go, as here. The sensitive LOG_LEVEL
# is now write-only (value_wo): its value leaves the state. The policy's
# code is read by the provider from its file (source): the code leaves the
# state too.
terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

provider "tfgov" {}

variable "workspace_id" {
  type = string
}

variable "developers_team_id" {
  type = string
}

variable "platform_team_id" {
  type = string
}

variable "agent_pool_id" {
  type = string
}

variable "module_name" {
  type = string
}

variable "module_provider" {
  type = string
}

variable "api_token" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "tfgov_policy" "require_tags" {
  name              = "require-tags"
  description       = "Every resource has tags"
  kind              = "sentinel"
  source            = "${path.module}/require-tags.sentinel"
  enforcement_level = "soft-mandatory"
}

resource "tfgov_team_access" "developers" {
  access       = "write"
  team_id      = var.developers_team_id
  workspace_id = var.workspace_id
}

resource "tfgov_team_access" "platform" {
  access       = "custom"
  team_id      = var.platform_team_id
  workspace_id = var.workspace_id
  permissions = {
    runs              = "plan"
    variables         = "read"
    state_versions    = "read-outputs"
    sentinel_mocks    = "none"
    workspace_locking = false
    run_tasks         = false
  }
}

resource "tfgov_agent_token" "ci" {
  agent_pool_id = var.agent_pool_id
  description   = "ci agents"
}

resource "tfgov_module_test_variable" "region" {
  key             = "AWS_REGION"
  value           = "eu-west-1"
  module_name     = var.module_name
  module_provider = var.module_provider
}

resource "tfgov_module_test_variable" "log_level" {
  key              = "LOG_LEVEL"
  value_wo         = "debug"
  value_wo_version = 1
  sensitive        = true
  module_name      = var.module_name
  module_provider  = var.module_provider
}

resource "tfgov_module_test_variable" "api_token" {
  key              = "API_TOKEN"
  value_wo         = var.api_token
  value_wo_version = 1
  sensitive        = true
  module_name      = var.module_name
  module_provider  = var.module_provider
}

output "agent_token" {
  value     = tfgov_agent_token.ci.token
  sensitive = true
}
