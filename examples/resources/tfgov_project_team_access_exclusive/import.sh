# By the project ID:
terraform import tfgov_project_team_access_exclusive.payments prj-WD7k3xzJvPGMXsUd
