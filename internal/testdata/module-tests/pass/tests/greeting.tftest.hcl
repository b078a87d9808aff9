run "plan_greets_world" {
  command = plan

  assert {
    condition     = local.greeting == "hello, world"
    error_message = "The planned greeting is not \"hello, world\"."
  }
}

run "apply_greets_world" {
  assert {
    condition     = output.greeting == "hello, world"
    error_message = "The greeting is not \"hello, world\"."
  }
}
