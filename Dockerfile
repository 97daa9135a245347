# sudoku-service container image.
#
#   docker build -t sudoku-service:0.2.0 .
#   docker run --rm -p 8080:8080 sudoku-service:0.2.0
#
# Two stages: a Rust toolchain image compiles the release binary with the locked dependency
# set, and a distroless runtime image (glibc and libgcc only: no shell, no package manager)
# runs it as an unprivileged numeric user.

# Both base images are pinned by digest (the multi-platform index), so a rebuild uses the
# very images this file was tested with; the tag in front says which one that is. To move
# to newer images, look up the tag's current digest (`docker buildx imagetools inspect
# rust:1.95-slim-bookworm`, or `crane digest`) and replace the digest after the `@`.

# ---- build ----------------------------------------------------------------------------
# Pinned to bookworm so the binary's glibc matches the debian12 runtime image below.
FROM rust:1.95-slim-bookworm@sha256:d7482085ff5b415f84dba5647ae71606650bdef00db7aeb69f4b3d170c3e4082 AS builder
WORKDIR /build
# The shipped binary carries no symbol table (local release builds keep theirs).
ENV CARGO_PROFILE_RELEASE_STRIP=symbols

# Dependencies get a layer of their own: they are compiled against placeholder sources, so
# a change to the service's code reuses this layer instead of rebuilding every crate.
# Cargo.toml declares bench targets, and cargo refuses a manifest whose targets are
# missing, so every `[[bench]]` named there gets a placeholder too, and so does the engine
# crate of the workspace.
COPY Cargo.toml Cargo.lock ./
COPY engine/Cargo.toml ./engine/
RUN mkdir -p src benches engine/src \
    && echo 'fn main() {}' > src/main.rs \
    && touch src/lib.rs engine/src/lib.rs \
    && sed -n '/^\[\[bench\]\]/{n;s/^name = "\(.*\)"$/\1/p}' Cargo.toml > bench-names \
    && while read -r bench; do echo 'fn main() {}' > "benches/$bench.rs"; done < bench-names \
    && cargo build --release --locked \
    && rm -rf src engine/src bench-names

# Only what the binary is built from, so editing the README, the tests or the benches
# reuses the layers above. The placeholders compiled above are newer than the copied
# files, and cargo decides what to rebuild by modification time, so the sources are
# touched to make sure the crates themselves are compiled again.
COPY engine/src ./engine/src
COPY src ./src
COPY openapi.yaml ./
RUN find src engine/src -type f -exec touch {} + \
    && cargo build --release --locked

# ---- runtime --------------------------------------------------------------------------
FROM gcr.io/distroless/cc-debian12:nonroot@sha256:9dac0a79194e45a7da0158a9c6da57b217585af0786db3845d1f0ec1a0dd182f

LABEL org.opencontainers.image.title="sudoku-service" \
      org.opencontainers.image.description="A fast Sudoku solver as an HTTP/JSON microservice and a command line" \
      org.opencontainers.image.licenses="MIT"

COPY --from=builder /build/target/release/sudoku-service /usr/local/bin/sudoku-service

# The same environment variables as the binary's flags (see `sudoku-service serve --help`);
# override any of them with `docker run -e NAME=value`.
ENV LISTEN_ADDR=0.0.0.0:8080 \
    LOG_FORMAT=json

# Numeric so that Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
USER 65532:65532
EXPOSE 8080

# The binary is PID 1 and handles SIGTERM itself: /readyz turns 503, in-flight requests
# finish within SHUTDOWN_GRACE_SECS, and it exits 0.
STOPSIGNAL SIGTERM

# Exec form: the runtime image has no shell and no curl. The subcommand finds the port
# through LISTEN_ADDR/PORT (or HEALTHCHECK_URL) and exits 0 when /healthz answers 200.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/sudoku-service", "healthcheck"]

ENTRYPOINT ["/usr/local/bin/sudoku-service"]
CMD ["serve"]
