import {
  to = tfgov_workspace_team_access_exclusive.app
  id = "ws-SihZTyXKfNXUWuUa"
}
