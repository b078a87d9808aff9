import {
  to = tfgov_team_access.developers
  id = "my-org/my-workspace/developers"
}
