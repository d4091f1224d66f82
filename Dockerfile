# syntax=docker/dockerfile:1
# The Tributary image: the production distribution (no embedded Kafka or Postgres), every role. The role is the
# command's argument, the configuration comes from TRIBUTARY_* environment variables (docs/configuration.md), e.g.
#   docker run --env-file tributary.env tributary:local run --role replication:snapshot
# Build: docker build -t tributary:local .     (docker-compose.yml builds it for you)
#
# Base images are pinned by digest (the multi-platform image index of each tag, Temurin 17.0.20+8 on Ubuntu 24.04),
# so a rebuild gets the same bases until someone moves the pins. To move them, read the tag's current index digest
# and pass it, or change the defaults below:
#   docker buildx imagetools inspect eclipse-temurin:17-jre-noble          (the "Digest:" line)
#   docker build --build-arg RUNTIME_IMAGE=eclipse-temurin:17-jre-noble@sha256:<digest> -t tributary:local .
ARG BUILD_IMAGE=maven:3.9-eclipse-temurin-17@sha256:42a3ac393abbc64dae6c96703e5ead2e921fe9103371ac58b5b404b0d6a26502
ARG RUNTIME_IMAGE=eclipse-temurin:17-jre-noble@sha256:76bf6d763e84e4d286d5ee3df61e4adeca214977f83c7d8d2327b93db582dd9d

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
COPY . .
# The Maven repository is a build cache, so a rebuild after a code change does not download the world again.
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -ntp -DskipTests -Dcheckstyle.skip -pl distribution -am package \
    && mkdir -p /layers \
    && cp distribution/target/image/tributary-dependencies.jar distribution/target/image/tributary-application.jar \
        /layers/

FROM ${RUNTIME_IMAGE}
# curl serves the health checks: curl -fsS http://localhost:9464/health/ready
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 tributary \
    && useradd --system --uid 10001 --gid tributary --home-dir /app --shell /usr/sbin/nologin tributary
WORKDIR /app
# Two layers: the third-party libraries (they change with dependency updates only), then Tributary's own classes.
COPY --from=build /layers/tributary-dependencies.jar /app/lib/tributary-dependencies.jar
COPY --from=build /layers/tributary-application.jar /app/lib/tributary-application.jar
USER 10001:10001
# /metrics (Prometheus), /health/live, /health/ready: the metrics.port key (TRIBUTARY_METRICS_PORT).
EXPOSE 9464
# Container-aware heap; a process that runs out of memory exits (and is restarted) instead of limping on.
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
# exec: java is PID 1 and gets SIGTERM, so the run hands its work back (consumer groups, the slot) on stop.
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -cp /app/lib/tributary-application.jar:/app/lib/tributary-dependencies.jar io.tributary.launcher.Main \"$@\"", "tributary"]
CMD ["--help"]
