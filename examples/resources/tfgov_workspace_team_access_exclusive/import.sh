# By the workspace ID:
terraform import tfgov_workspace_team_access_exclusive.app ws-SihZTyXKfNXUWuUa
