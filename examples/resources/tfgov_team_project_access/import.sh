# By the team project access ID:
terraform import tfgov_team_project_access.platform tprj-GE7uWCAQ2dmZgt6M

# By organization, project name and team name:
terraform import tfgov_team_project_access.platform my-org/my-project/platform
