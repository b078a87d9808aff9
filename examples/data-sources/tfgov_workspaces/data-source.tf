# Every production workspace (tag "prod") but the legacy ones. A filter that
# matches no workspace fails the plan, naming the closest tags or names: a
# typo would otherwise empty the for_each below and plan the destroy of
# every grant.
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

# A filter that may rightly match nothing (no canary workspace today).
data "tfgov_workspaces" "canaries" {
  tag_names   = ["canary"]
  allow_empty = true
}
