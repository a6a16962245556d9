# Tunedrop production image (record 160): built in one stage, run from a slim one as a non-root user.
# docker build -t tunedrop . && docker compose up (compose.yaml runs the migrate step, 2 web instances and
# a worker). Before a rollout: the new image once with TUNEDROP_ROLE=migrate (docs/operations.md).
# The admin CLI inside it: docker compose exec worker npm run cli -- user:create …

# Node 24, an LTS line supported until April 2028 (Node 20 reached its end of life in April 2026; record 334).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
COPY packages/api-client/package.json packages/api-client/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
# Only what the server reads at run time: the bundles, migrations, the built web app, production modules.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages/shared ./packages/shared
COPY --from=build /app/apps/server/package.json ./apps/server/
# `npm run cli -- …` runs `build.mjs --if-stale` first, which finds no sources here and builds nothing.
COPY --from=build /app/apps/server/build.mjs ./apps/server/
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/server/drizzle ./apps/server/drizzle
COPY --from=build /app/apps/web/package.json ./apps/web/
COPY --from=build /app/apps/web/dist ./apps/web/dist
# The prerender bundle renders the public pages again when the operator's brand is saved (record 203).
COPY --from=build /app/apps/web/node_modules/.prerender ./apps/web/node_modules/.prerender
COPY --from=build /app/vendor ./vendor
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness only (the process serves HTTP); orchestrators route traffic on /api/health/ready.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/server/dist/main.js"]
