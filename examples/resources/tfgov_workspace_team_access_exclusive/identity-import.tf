import {
  to = tfgov_workspace_team_access_exclusive.app
  identity = {
    workspace_id = "ws-SihZTyXKfNXUWuUa"
  }
}
