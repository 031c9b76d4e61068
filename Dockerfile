# The tempmon-kit image: the mock (`serve`, the default) and the kit (`contract`), as a user installs them.
# Containerfile is a link to this file (podman looks for it first); docker's BuildKit cannot read a Dockerfile that
# is a link, so this is the real one. How to run it, the figures and the release: docs/container.md.
#
#   docker build -t tempmon-kit .
#   docker run --rm -p 4010:4010 tempmon-kit
#
# Any base with Node >= 24.18 on PATH and npm (every Node image has both) builds it:
#   docker build --build-arg BASE=registry.example/node:24 -t tempmon-kit .
ARG BASE=docker.io/library/node:24-bookworm-slim

# Build: the whole dev install compiles dist/, then `npm pack` makes the package a user would install. Each COPY
# comes just before the step that needs it, so that an edit of the README re-runs only the packing.
FROM ${BASE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are here, and no dependency needs its scripts.
RUN npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
COPY tsconfig.json tsconfig.build.json ./
COPY spec spec
COPY src src
RUN npm run build
COPY LICENSE README.md ./
RUN npm pack --ignore-scripts --pack-destination /tmp --loglevel=error \
  && mkdir /opt/tempmon \
  && tar -xzf /tmp/tempmon-kit-*.tgz -C /opt/tempmon --strip-components=1

# The user install: the package's locked runtime dependencies (from the cache while the lockfile holds still), then
# the package's files; no toolchain, no test, no dev dependency.
FROM ${BASE} AS install
WORKDIR /opt/tempmon
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error --cache /tmp/npm-cache \
  && rm -rf /tmp/npm-cache
COPY --from=build /opt/tempmon /opt/tempmon

FROM ${BASE}
# Release builds pass these (docs/container.md): the commit and the repository's URL are not known here.
# VERSION's default is package.json's version, which the slow test checks.
ARG VERSION=0.1.0
ARG REVISION=
ARG SOURCE=
LABEL org.opencontainers.image.title="tempmon-kit" \
      org.opencontainers.image.description="Mock server and contract-testing kit for the temperature-monitoring alert and sensor listing API" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="MIT"
COPY --from=install /opt/tempmon /opt/tempmon
# Every option of `tempmon serve` also comes from TEMPMON_<NAME> (a flag wins). The host is set here, not in
# CMD, so that `docker run IMAGE serve --seed 7` still answers from outside the container.
ENV NODE_ENV=production \
    TEMPMON_HOST=0.0.0.0
# Not root, and a number, so that Kubernetes' runAsNonRoot can check it; the process writes nothing, so a
# read-only root file system (--read-only) works.
USER 10001:10001
WORKDIR /tmp
EXPOSE 4010
# Node itself asks /readyz (no curl here), on TEMPMON_PORT when that moves the port.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.TEMPMON_PORT||4010)+'/readyz').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1: the CLI's own SIGTERM and SIGINT handlers close the server and exit 0.
ENTRYPOINT ["node", "/opt/tempmon/dist/cli/main.js"]
CMD ["serve"]
