# <policy_set_id>/<parameter_id>, hashicorp/tfe's form
terraform import tfgov_policy_set_parameter.region polset-3yVQZvHzf5j3WRJ1/var-BEPU9NjPVCiCfrXj

# <parameter_id> alone, for a set of the provider's organization
terraform import tfgov_policy_set_parameter.region var-BEPU9NjPVCiCfrXj

# <organization>/<policy set name>/<key>
terraform import tfgov_policy_set_parameter.region acme/baseline/region
