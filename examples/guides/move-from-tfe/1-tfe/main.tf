# Before: an organization's governance managed with hashicorp/tfe.
terraform {
  required_providers {
    tfe = {
      source  = "hashicorp/tfe"
      version = "~> 0.79"
    }
  }
}

provider "tfe" {}

variable "organization" {
  type = string
}

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

resource "tfe_policy" "require_tags" {
  name         = "require-tags"
  description  = "Every resource has tags"
  kind         = "sentinel"
  policy       = file("${path.module}/require-tags.sentinel")
  enforce_mode = "soft-mandatory"
}

resource "tfe_team_access" "developers" {
  access       = "write"
  team_id      = var.developers_team_id
  workspace_id = var.workspace_id
}

resource "tfe_team_access" "platform" {
  team_id      = var.platform_team_id
  workspace_id = var.workspace_id
  permissions {
    runs              = "plan"
    variables         = "read"
    state_versions    = "read-outputs"
    sentinel_mocks    = "none"
    workspace_locking = false
    run_tasks         = false
  }
}

resource "tfe_agent_token" "ci" {
  agent_pool_id = var.agent_pool_id
  description   = "ci agents"
}

resource "tfe_test_variable" "region" {
  key             = "AWS_REGION"
  value           = "eu-west-1"
  category        = "env"
  organization    = var.organization
  module_name     = var.module_name
  module_provider = var.module_provider
}

resource "tfe_test_variable" "log_level" {
  key             = "LOG_LEVEL"
  value           = "debug"
  category        = "env"
  sensitive       = true
  organization    = var.organization
  module_name     = var.module_name
  module_provider = var.module_provider
}

resource "tfe_test_variable" "api_token" {
  key              = "API_TOKEN"
  value_wo         = var.api_token
  value_wo_version = 1
  category         = "env"
  sensitive        = true
  organization     = var.organization
  module_name      = var.module_name
  module_provider  = var.module_provider
}

output "agent_token" {
  value     = tfe_agent_token.ci.token
  sensitive = true
}
