# The same governance configuration with hashicorp/tfe's resources, tested
# against the same seed file (../seed.json).
terraform {
  required_providers {
    tfe = {
      source  = "hashicorp/tfe"
      version = "~> 0.79"
    }
  }
}

# Reads TFE_HOSTNAME, TFE_TOKEN and TFE_ORGANIZATION.
provider "tfe" {}

variable "platform_team_id" {
  type        = string
  description = "Team that writes to the workspace."
}

variable "workspace_id" {
  type        = string
  description = "Workspace the team gets access to."
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

resource "tfe_policy" "limit_destroys" {
  name         = "limit-destroys"
  description  = "A run destroys at most five resources."
  kind         = "sentinel"
  policy       = file("${path.module}/../policies/limit-destroys.sentinel")
  enforce_mode = "soft-mandatory"
}

resource "tfe_team_access" "platform" {
  team_id      = var.platform_team_id
  workspace_id = var.workspace_id
  access       = "write"
}

resource "tfe_test_variable" "region" {
  key             = "TF_VAR_region"
  value           = "eu-west-1"
  category        = "env"
  organization    = "acme"
  module_name     = var.module_name
  module_provider = var.module_provider
}

resource "tfe_agent_token" "build" {
  agent_pool_id = var.agent_pool_id
  description   = "Build agents"
}
