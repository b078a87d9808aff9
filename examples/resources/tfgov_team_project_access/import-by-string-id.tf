import {
  to = tfgov_team_project_access.platform
  id = "my-org/my-project/platform"
}
