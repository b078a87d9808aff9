import {
  to = tfgov_team_access.developers
  identity = {
    id = "tws-19iugLwoNgtWZbKP"
  }
}
