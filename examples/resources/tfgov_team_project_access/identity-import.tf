import {
  to = tfgov_team_project_access.platform
  identity = {
    id = "tprj-GE7uWCAQ2dmZgt6M"
  }
}
