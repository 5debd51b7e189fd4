#!/usr/bin/env bash
# Builds the Stele container image from this checkout, with no image registry:
#
#   deploy/image/build.sh [--tag NAME] [--commit SHA]
#
#   --tag NAME     the image to make; default localhost/stele:VERSION (VERSION: the distribution's)
#   --commit SHA   the commit the image is labelled with; default: git rev-parse HEAD
#
# It prints the image name as its last line of standard output. What it does:
#   1. the distribution (stele-cli/target/stele/lib and native/): `mvn -B -DskipTests package`
#      when missing;
#   2. the base image the Containerfile names (debian:bookworm-slim): when podman does not have
#      it, it is made here from Debian's packages with debootstrap and tagged with that name, so
#      the Containerfile builds with --pull=never; it is made once and then reused;
#   3. podman build of deploy/image/Containerfile (layers cached; the Debian packages its stages
#      install come from the same mirror apt uses, over --network=host).
# Nothing downloads a prebuilt binary. Needs root (podman's store in /var/lib/containers),
# podman, runc and debootstrap; .ci/run installs them.
set -euo pipefail
cd "$(dirname "$0")/../.."

TAG="" COMMIT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) TAG="$2"; shift 2 ;;
    --commit) COMMIT="$2"; shift 2 ;;
    *) echo "usage: $0 [--tag NAME] [--commit SHA]" >&2; exit 2 ;;
  esac
done

# The base every stage starts FROM, and the Debian release it is.
BASE=$(sed -n 's/^FROM \([^ ]*\).*/\1/p' deploy/image/Containerfile | sort -u)
case "$BASE" in
  */debian:*-slim) SUITE=${BASE##*:}; SUITE=${SUITE%-slim} ;;
  *) echo "build.sh: cannot make the base '$BASE' (one Debian slim image expected)" >&2; exit 1 ;;
esac
# The mirrors apt on this machine uses (deb822 or one-line sources), else Debian's own.
apt_uris() {
  { cat /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list 2>/dev/null || true; } |
    sed -n 's/^URIs: *\([^ ]*\).*/\1/p; s/^deb \(\[[^]]*\] \)\?\(http[^ ]*\) .*/\2/p'
}
MIRROR=$(apt_uris | grep -v security | head -n1 || true)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY=$(apt_uris | grep security | head -n1 || true)
SECURITY=${SECURITY:-http://deb.debian.org/debian-security}

log() { echo "build.sh: $*" >&2; }

if ! ls stele-cli/target/stele/lib/stele-cli-*.jar >/dev/null 2>&1 \
  || [ ! -d stele-cli/target/stele/native ]; then
  log "the distribution is missing; running mvn -B -DskipTests package"
  mvn -B -q -DskipTests package >&2
fi
JAR=$(ls stele-cli/target/stele/lib/stele-cli-*.jar)
VERSION=${JAR##*/stele-cli-}
VERSION=${VERSION%.jar}
TAG=${TAG:-localhost/stele:$VERSION}
COMMIT=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}

# The base, made once: several checkouts may build at the same time, so one makes it while the
# others wait on the lock and then find it.
make_base() {
  local root
  root=$(mktemp -d /var/tmp/stele-base.XXXXXX)
  # shellcheck disable=SC2064 # expanded now: make_base runs in the subshell below, which exits
  trap "rm -rf '$root' '$root.log'" EXIT
  log "making $BASE from $MIRROR with debootstrap (a few minutes, once)"
  if ! debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR" >"$root.log" 2>&1; then
    cat "$root.log" >&2
    return 1
  fi
  rm -f "$root.log"
  # As Debian's slim image: no documentation, manuals or locales, and no apt caches kept.
  cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CFG
  find "$root/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
  find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/cache/apt/*.bin \
    "$root"/var/cache/apt/archives/*.deb \
    "$root"/var/lib/apt/lists/* "$root"/var/log/*.log "$root"/var/cache/debconf/*-old
  find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  printf 'APT::Install-Recommends "false";\n' >"$root/etc/apt/apt.conf.d/docker-no-recommends"
  printf 'Acquire::Languages "none";\n' >"$root/etc/apt/apt.conf.d/docker-no-languages"
  # The sources Debian's image has: the release, its updates and its security updates.
  rm -f "$root/etc/apt/sources.list"
  cat >"$root/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $MIRROR
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $SECURITY
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  tar -C "$root" -c . | podman import --change 'CMD ["bash"]' - "$BASE" >&2
}
(
  flock 9
  podman image exists "$BASE" || make_base
) 9>/var/tmp/stele-base.lock

log "building $TAG (commit $COMMIT)"
podman build --pull=never --network=host \
  --build-arg VERSION="$VERSION" \
  --build-arg REVISION="$COMMIT" \
  --build-arg CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  -f deploy/image/Containerfile -t "$TAG" . >&2
echo "$TAG"
