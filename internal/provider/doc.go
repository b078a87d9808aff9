// Package provider is the tfgov Terraform provider: its resources, data
// sources, list resources and actions, on terraform-plugin-framework and
// go-tfe. To add a type, follow CONTRIBUTING.md "Adding a type";
// TestDocMap keeps this map true.
//
// # One type's files
//
// Every file of a type starts with the type's name (without "tfgov_"), so
// `ls <type>_*` lists it, tests included:
//
//	<type>_resource.go             schema, plan, Create, Read, Update, Delete, ImportState, helpers
//	<type>_api.go                  its requests beyond go-tfe's, and what their errors mean
//	<type>_move.go                 `moved` from hashicorp/tfe's counterpart
//	<type>_list.go                 its list resource (`terraform query`)
//	<type>_bulk.go                 its shared list, for refresh in bulk
//	<type>_data_source.go          the data source of the same name
//	<type>_plural_data_source.go   the plural data source (policies, agent_tokens, ...)
//	<type>_action.go               an action (module_test, agent_token_prune)
//	<type>_kit_test.go             its kit: what every cross-type suite needs of it (kit_test.go)
//
// The type's name is one constant (resource_type.go), from which its
// Metadata, identity and list resource names derive.
//
// A type with more than these holds the rest in files named for their
// concern; tfgov_policy and tfgov_policy_upload share theirs:
//
//	policy_code.go          every route of the code (content, content_wo, source): plan, apply, refresh
//	policy_code_proof.go    when a refresh may skip downloading the code (DESIGN.md "Policy code proofs")
//	policy_rego.go          the code checked at plan: empty code, and Rego with OPA's parser
//	policy_tests.go         tests_wo: Rego tests and examples run with OPA
//	policy_tests_plan.go    when tests_wo runs: at plan, or at apply before the upload
//	policy_upload_tests.go  tfgov_policy_upload's tests_wo
//	policy_upload_claim.go  one uploader per policy, refused at plan otherwise
//	policy_set_scope.go     which workspaces a policy set governs: the pure function, computed at plan
//	policy_set_vcs.go       a policy set from a VCS repository: vcs_repo and policies_path
//	team_access_permissions.go access levels; the `permissions` object its data sources share
//	team_access_plans.go    what one plan declared per parent (a grantParentKind): a grant its exclusive set leaves out
//	team_project_access_permissions.go its levels; `project_access` and `workspace_access`, shared with its data source
//
// and module_test_run_configuration.go packs and uploads a module's
// configuration for its test runs.
//
// # What every type shares, one file per mechanism
//
// These hold a type's part only where it is a line in a shared table:
//
//	registry.go        every type, once: constructors, permissions, lists, identities, moves
//	resource_type.go   the typed names and the bases (Metadata, Configure) types embed
//	permissions.go     the "Required permissions" texts, ending each type's description
//	identity.go        identity attributes synced on every CRUD (table from registry.go)
//	list_resources.go  the list resources' frame (listBase)
//	bulk_lists.go      the shared lists of the types refreshed in bulk
//	shared_lists.go    the mechanism: one list read per parent per operation
//	reconcile.go       creates whose answer was lost: find before creating again
//	ownership.go       adopt an object only on proof that this create made it
//	code_hash.go       hashes of local files taken at plan, for saved plans
//	private_state.go   every private state key, and each record's encoding
//	model_convert.go   models converted without reflection (speed)
//	move_state_tfe.go  moving state from hashicorp/tfe: the mechanism
//	scope_attributes.go organization/module_name/module_provider, defined once
//	errors.go          isNotFound (404: missing or not allowed alike); the permissions errors name
//	gone.go            gone or cannot see: one shared read of a parent says which
//	grant_parent.go    grants on two parents (workspace, project): see, list, gone or cannot see, locate
//	grant_exclusive.go the exclusive set of a grant parent (workspace, project): plan, refresh, apply, lock-out guard
//	grant_shell.go     the grant resource of either parent: read, delete, import, create and update around one request
//	grant_list.go      the grant list resource of either parent: by ID or by name
//	grant_exclusive_shell.go the exclusive form of either parent: plan, CRUD, with hooks for a form's own attributes
//	names.go           names in, IDs out: bulk lookups by name, closest names
//	empty_lookup.go    a plural lookup matching nothing fails, with the closest names
//	by_name_lookup.go  a plural lookup by exact names or a search (agent pools, projects): once, generic over the item
//	json_value.go      a JSON document as a Terraform value (policy evaluation)
//	variable_value.go  value, value_wo and sensitive of the API's vars: test variables, policy set parameters
//
// The provider itself: provider.go (schema, Configure), token_check.go
// (the token checked once at configure), validators.go, import_id.go,
// organization.go (the provider's default organization), module_ref.go (a
// private registry module's name, its versions' order), text.go (small
// helpers: backticked, quoted, sha256Hex, ...).
//
// # The HTTP layer: internal/tfeclient
//
// Nothing there imports terraform-plugin-framework; Configure builds the
// client with tfeclient.New:
//
//	client.go          New: the HTTP client, discovery, the go-tfe client
//	transport.go       retries, rate limits, error bodies, the request log
//	interrupt.go       after Terraform's stop: writes sent are carried to their answer, none sent after
//	service_clock.go   the service's clock, from its Date header; a lost write's window
//	response_notes.go  what go-tfe drops from an answer (headers, pointers)
//	errors.go          error texts naming the attribute (JSON:API pointers)
//	discovery.go       the API's address, by service discovery
//	credentials.go     the token: env, the CLI configuration's credentials, terraform login
//	pager.go           the one pager: every paginated list reads through it
//	api_request.go     the one raw JSON:API request, through go-tfe
package provider
