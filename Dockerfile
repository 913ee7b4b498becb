# piquet serve in a container (docs/deploy.md): the web and postgres extras on a slim Python, run by a user without
# privileges, its SQLite file (when no PostgreSQL is given) in the volume /data, and a health check on /healthz.
#
# The wheels are built in the full image, which has a C compiler for the solver's kernel; the slim image installs
# them and nothing else.
FROM python:3.11-bookworm AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY piquet ./piquet
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".[web,postgres]"

FROM python:3.11-slim-bookworm
# The release built above (pyproject.toml's version: tests/test_deploy.py holds them equal).
ARG PIQUET_VERSION=0.1.0
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIQUET_DB=/data/piquet.sqlite3
COPY --from=build /wheels /wheels
# --no-index: piquet and everything it needs from the wheels built above, nothing from elsewhere.
RUN pip install --no-cache-dir --no-index --find-links /wheels "piquet[web,postgres]==${PIQUET_VERSION}" \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin piquet \
    && mkdir /data \
    && chown piquet:piquet /data
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
CMD ["piquet", "serve", "--host", "0.0.0.0", "--port", "8000"]
