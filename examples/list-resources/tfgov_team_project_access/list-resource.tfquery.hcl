# Every team's access to one project.
list "tfgov_team_project_access" "platform" {
  provider         = tfgov
  include_resource = true
  config {
    project_id = "prj-XkS4wE5jJ9Yk2Pqa"
  }
}
