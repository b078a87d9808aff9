# Before: resources with several instances, managed with hashicorp/tfe.
terraform {
  required_providers {
    tfe = {
      source  = "hashicorp/tfe"
      version = "~> 0.79"
    }
  }
}

provider "tfe" {}

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

# for_each: one grant per team.
resource "tfe_team_access" "readers" {
  for_each = {
    developers = var.developers_team_id
    platform   = var.platform_team_id
  }
  access       = "read"
  team_id      = each.value
  workspace_id = var.workspace_id
}

# count: two agent tokens.
resource "tfe_agent_token" "ci" {
  count         = 2
  agent_pool_id = var.agent_pool_id
  description   = "ci-${count.index}"
}
