variable "workspace_id" {
  type        = string
  description = "Workspace the teams get access to."
}

variable "platform_team_id" {
  type        = string
  description = "Team that administers the workspace."
}

variable "developers_team_id" {
  type        = string
  description = "Team that plans and applies but manages nothing else."
}

# The platform team administers the workspace.
resource "tfgov_team_access" "platform" {
  team_id      = var.platform_team_id
  workspace_id = var.workspace_id
  access       = "admin"
}

# Developers run plans and applies and read outputs, but neither see the
# variables nor lock the workspace.
resource "tfgov_team_access" "developers" {
  team_id      = var.developers_team_id
  workspace_id = var.workspace_id
  access       = "custom"

  permissions = {
    runs           = "apply"
    state_versions = "read-outputs"
  }
}

data "tfgov_workspace_team_access" "demo" {
  workspace_id = var.workspace_id
  depends_on   = [tfgov_team_access.platform, tfgov_team_access.developers]
}

output "team_access" {
  description = "Each team's access level on the workspace."
  value       = { for ta in data.tfgov_workspace_team_access.demo.team_access : ta.team_name => ta.access }
}
