package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

var _ datasource.DataSourceWithConfigure = (*agentTokensDataSource)(nil)

// NewAgentTokensDataSource is the tfgov_agent_tokens data source.
func NewAgentTokensDataSource() datasource.DataSource {
	return &agentTokensDataSource{dataSourceBase{typ: agentTokensDataSourceType}}
}

type agentTokensDataSource struct{ dataSourceBase }

type agentTokensDataSourceModel struct {
	ID          types.String          `tfsdk:"id"`
	AgentPoolID types.String          `tfsdk:"agent_pool_id"`
	Tokens      []agentTokenListEntry `tfsdk:"tokens"`
}

type agentTokenListEntry struct {
	ID          types.String `tfsdk:"id"`
	Description types.String `tfsdk:"description"`
	CreatedAt   types.String `tfsdk:"created_at"`
	LastUsedAt  types.String `tfsdk:"last_used_at"`
}

func (d *agentTokensDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, agentTokensDataSourceType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "Every authentication token of an agent pool, oldest first, without their secrets (the API never returns a secret after creation). " +
			"A pool with no token is a normal state (a new pool), not a typo: the pool is named by its ID, which must exist, so an empty list is no error.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The agent pool's ID.",
			},
			"agent_pool_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ID of the agent pool (`apool-<id>`).",
				Validators:          []validator.String{idValidator("apool-")},
			},
			"tokens": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The pool's tokens.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id":           schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the token (`at-<id>`)."},
						"description":  schema.StringAttribute{Computed: true, MarkdownDescription: "Description of the token."},
						"created_at":   schema.StringAttribute{Computed: true, MarkdownDescription: "When the token was created (RFC 3339)."},
						"last_used_at": schema.StringAttribute{Computed: true, MarkdownDescription: "When an agent last used the token (RFC 3339); null if never."},
					},
				},
			},
		},
	}
}

// Read lists every page, 100 tokens a request.
func (d *agentTokensDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg agentTokensDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	poolID := cfg.AgentPoolID.ValueString()
	tokens, err := tfeclient.ListAll(ctx, d.data.agentTokenPages(poolID))
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("agent_pool_id"), "Error listing agent tokens", d.data.agentPoolError(ctx, poolID, err))
		return
	}
	cfg.Tokens = make([]agentTokenListEntry, 0, len(tokens))
	for _, t := range tokens {
		entry := agentTokenListEntry{
			ID:          types.StringValue(t.ID),
			Description: types.StringValue(t.Description),
			CreatedAt:   types.StringValue(t.CreatedAt.UTC().Format(time.RFC3339)),
			LastUsedAt:  types.StringNull(),
		}
		if !t.LastUsedAt.IsZero() {
			entry.LastUsedAt = types.StringValue(t.LastUsedAt.UTC().Format(time.RFC3339))
		}
		cfg.Tokens = append(cfg.Tokens, entry)
	}
	cfg.ID = cfg.AgentPoolID
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}
