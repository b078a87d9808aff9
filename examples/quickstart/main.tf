# The quickstart that `make demo` applies against the sandbox's demo seed.
# The provider reads TFE_ADDRESS, TFE_TOKEN and TFE_ORGANIZATION, and each
# variable below comes from the seed's TF_VAR_ lines.
terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

provider "tfgov" {}
