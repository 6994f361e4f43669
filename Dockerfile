# firefox-use in a container, so that regress baselines made on a laptop are the bytes CI makes: the same Debian 12,
# Firefox ESR from Debian and the same fonts (DejaVu, Liberation) as the machine the project's CI runs on.
#   docker build -t firefox-use .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" -w /work firefox-use regress visual/suite.yaml --update
# See docs/regress.md ("Same bytes on every machine"). Not built by the project's CI when the machine has no docker.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY . .
# Install scripts stay off (package.json allowScripts): nothing is downloaded beyond the npm packages.
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      firefox-esr fonts-dejavu-core fonts-dejavu-extra fonts-liberation ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/firefox-use
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/profiles ./profiles
# HOME in /tmp: `docker run --user "$(id -u):$(id -g)"` (files written into the mounted checkout stay yours) runs
# as a user the image does not know, whose home would be /.
ENV FIREFOX_BIN=/usr/bin/firefox-esr HOME=/tmp
USER node
ENTRYPOINT ["node", "/opt/firefox-use/dist/cli/main.js"]
CMD ["--help"]
