# Every production workspace (tag "prod") but the legacy ones.
data "tfgov_workspaces" "prod" {
  tag_names         = ["prod"]
  exclude_tag_names = ["legacy"]
}

data "tfgov_team" "sre" {
  name = "sre"
}

# The SRE team may plan and apply in each of them: one grant per workspace,
# keyed by workspace name.
resource "tfgov_team_access" "sre" {
  for_each     = data.tfgov_workspaces.prod.ids_by_name
  workspace_id = each.value
  team_id      = data.tfgov_team.sre.id
  access       = "write"
}

# Workspaces by exact names (each must exist), or by a name prefix.
data "tfgov_workspaces" "named" {
  names = ["payments-prod", "payments-staging"]
}

data "tfgov_workspaces" "payments" {
  name_prefix = "payments-"
}
