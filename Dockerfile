# syntax=docker/dockerfile:1
#
# Search MCP in a container: `search-mcp-http` by default, `search-mcp` (the CLI) on PATH as well.
#
#   docker build -t search-mcp .
#   docker run --init -p 3000:3000 -v "$PWD/config:/config" search-mcp
#
# The config is /config/mcp-servers.json ($SEARCH_MCP_CONFIG). Without `auth.tokens` in it, the server generates an
# access token at first start, prints it once and keeps it in /config/.search-mcp-http-token: mount /config writable
# for uid 1000 (the image's `node` user), or list your tokens in the config.
#
# Inside the container the server binds 0.0.0.0. Clients that reach it by a name (a DNS name, a reverse proxy) must
# have that name allowed, or the Host check (the protection against DNS rebinding) refuses them:
#
#   docker run --init -p 3000:3000 -v "$PWD/config:/config" search-mcp \
#     search-mcp-http --host 0.0.0.0 --port 3000 --allowed-host mcp.example.com
#
# Backends started with `npx -y …` or `node …` work: node and npm are in the image (npm's cache is in the `node`
# user's home). `--init` puts a small init in front as PID 1, which reaps backend processes that exit.
# Other commands: `docker run --rm -v "$PWD/config:/config" search-mcp search-mcp doctor`.

ARG NODE_IMAGE=node:20-bookworm-slim
ARG PNPM_VERSION=10.34.9

# ---- build: the workspace, built and packed exactly as a release packs it --------------------------------------
FROM ${NODE_IMAGE} AS build
ARG PNPM_VERSION
WORKDIR /repo
# Dependencies first, from the lockfile alone (and the patches it names), so this layer stays cached until it changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
COPY patches ./patches
RUN npx -y pnpm@${PNPM_VERSION} fetch
COPY . .
RUN npx -y pnpm@${PNPM_VERSION} install --offline --frozen-lockfile
RUN npx -y pnpm@${PNPM_VERSION} exec turbo run build --filter=@search-mcp/cli... --filter=@search-mcp/http... \
  && npx -y pnpm@${PNPM_VERSION} build:types
RUN npx -y pnpm@${PNPM_VERSION} --recursive --filter "@search-mcp/cli..." --filter "@search-mcp/http..." \
      pack --pack-destination /packs

# ---- runtime: the packed packages installed with npm, as a user installs them; no sources, no dev tools ---------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /opt/search-mcp
COPY --from=build /packs /tmp/packs
RUN echo '{ "name": "search-mcp-image", "private": true }' > package.json \
  && npm install --omit=dev --no-audit --no-fund /tmp/packs/*.tgz \
  && rm -rf /tmp/packs \
  && npm cache clean --force \
  && mkdir /config \
  && chown node:node /config
ENV PATH=/opt/search-mcp/node_modules/.bin:$PATH \
    SEARCH_MCP_CONFIG=/config/mcp-servers.json
USER node
WORKDIR /home/node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["search-mcp-http", "--host", "0.0.0.0", "--port", "3000"]
