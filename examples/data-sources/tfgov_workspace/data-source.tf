# A workspace of the provider's organization, by name.
data "tfgov_workspace" "payments" {
  name = "payments-prod"
}

data "tfgov_team" "payments" {
  name = "payments"
}

resource "tfgov_team_access" "payments" {
  workspace_id = data.tfgov_workspace.payments.id
  team_id      = data.tfgov_team.payments.id
  access       = "write"
}
