# syntax=docker/dockerfile:1
# The Tributary image: one runnable jar, every role. The role is the command's argument, the configuration comes
# from TRIBUTARY_* environment variables (docs/configuration.md), e.g.
#   docker run --env-file tributary.env tributary:local run --role replication:snapshot
# Build: docker build -t tributary:local .     (docker-compose.yml builds it for you)

FROM maven:3-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The Maven repository is a build cache, so a rebuild after a code change does not download the world again.
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -ntp -DskipTests -Dcheckstyle.skip -pl launcher -am package \
    && cp launcher/target/tributary.jar /tributary.jar

FROM eclipse-temurin:17-jre
# curl (part of the base image) serves the health checks: curl -fsS http://localhost:9464/health/ready
RUN groupadd --system --gid 10001 tributary \
    && useradd --system --uid 10001 --gid tributary --home-dir /app --shell /usr/sbin/nologin tributary
WORKDIR /app
COPY --from=build /tributary.jar /app/tributary.jar
USER 10001:10001
# /metrics (Prometheus), /health/live, /health/ready: the metrics.port key (TRIBUTARY_METRICS_PORT).
EXPOSE 9464
# Container-aware heap; a process that runs out of memory exits (and is restarted) instead of limping on.
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
# exec: java is PID 1 and gets SIGTERM, so the run hands its work back (consumer groups, the slot) on stop.
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app/tributary.jar \"$@\"", "tributary"]
CMD ["--help"]
