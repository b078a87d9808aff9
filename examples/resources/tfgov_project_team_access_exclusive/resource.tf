data "tfgov_project" "payments" {
  name = "payments"
}

data "tfgov_teams" "payments" {
  names = ["payments-developers", "platform"]
}

# Only these teams may hold access to the project (and so, through it, to
# every workspace in it): any other team's project access shows in the plan
# as a team leaving team_ids, and the apply removes it.
resource "tfgov_project_team_access_exclusive" "payments" {
  project_id = data.tfgov_project.payments.id
  team_ids   = data.tfgov_teams.payments.ids
}
