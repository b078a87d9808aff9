# During the move: both providers. A resource that keeps its instance keys
# moves with one moved block for all its instances; one whose keys change
# (count to for_each here) moves whole, then one moved block per instance
# gives each index its key.
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

provider "tfe" {}

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

# The same for_each keys: one moved block for the whole resource moves
# tfe_team_access.readers["developers"] and ["platform"].
resource "tfgov_team_access" "readers" {
  for_each = {
    developers = var.developers_team_id
    platform   = var.platform_team_id
  }
  access       = "read"
  team_id      = each.value
  workspace_id = var.workspace_id
}

moved {
  from = tfe_team_access.readers
  to   = tfgov_team_access.readers
}

# count becomes for_each, keyed by the token's description. Move the
# whole resource to tfgov (keeping its indexes), then each index to its
# key: Terraform chains the moves. (A moved block from one instance of a
# tfe_* resource straight to a tfgov_* instance is refused: Terraform then
# sends the move to tfgov as if the source were tfgov's own.)
resource "tfgov_agent_token" "ci" {
  for_each      = toset(["ci-0", "ci-1"])
  agent_pool_id = var.agent_pool_id
  description   = each.key
}

moved {
  from = tfe_agent_token.ci
  to   = tfgov_agent_token.ci
}

moved {
  from = tfgov_agent_token.ci[0]
  to   = tfgov_agent_token.ci["ci-0"]
}

moved {
  from = tfgov_agent_token.ci[1]
  to   = tfgov_agent_token.ci["ci-1"]
}

output "agent_tokens" {
  value     = { for k, t in tfgov_agent_token.ci : k => t.token }
  sensitive = true
}
