import {
  to = tfgov_project_team_access_exclusive.payments
  id = "prj-WD7k3xzJvPGMXsUd"
}
