# Build: the client bundles (vite) and the server compiled to JavaScript (tsc) into dist/.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Runtime dependencies only: no TypeScript, Vite, test or bench tooling in the image.
FROM node:22-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json ./
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# DATA_DIR (.data) holds the mail outbox, and PGlite or local files when those defaults are kept.
RUN mkdir -p .data && chown node:node .data
USER node
EXPOSE 3000
CMD ["node", "dist/server/server/main.js"]
