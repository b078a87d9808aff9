import {
  to = tfgov_project_team_access_exclusive.payments
  identity = {
    project_id = "prj-WD7k3xzJvPGMXsUd"
  }
}
