# The Taskhub server with the built web app, for docker-compose.yml.
FROM node:20-bookworm AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM rust:1-bookworm AS server
WORKDIR /src
COPY . .
RUN cargo build --release -p server

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=server /src/target/release/server /usr/local/bin/server
COPY --from=web /src/web/dist /app/web/dist
ENV BIND_ADDR=0.0.0.0:8080 DATA_DIR=/app/data WEB_DIST=/app/web/dist
EXPOSE 8080
CMD ["server"]
