# By the team access ID:
terraform import tfgov_team_access.developers tws-19iugLwoNgtWZbKP

# By organization, workspace name and team name:
terraform import tfgov_team_access.developers my-org/my-workspace/developers
