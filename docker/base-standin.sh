#!/usr/bin/env bash
# Builds a stand-in for the image the Dockerfile starts FROM (python:3.11-slim-bookworm) out of
# Debian's own archive and imports it under that name, for a machine that reaches Debian's
# package mirror but no container registry. Debian bookworm's Python is 3.11, as in the
# official image; `python` and `pip` are there as in the official image (python-is-python3,
# python3-pip, python3-venv). The machine's extra CA certificates (a TLS-inspecting proxy's)
# go in too, so pip inside the build reaches PyPI as the machine does.
#
#   bash docker/base-standin.sh [IMAGE]     # needs root, debootstrap and a running Docker daemon
set -euo pipefail

image=${1:-python:3.11-slim-bookworm}
# the mirror this machine's apt already uses, so nothing else has to be reachable
mirror=$(
  { grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
    grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}'; } | grep -v security | head -n1 || true
)
rootfs=$(mktemp -d /tmp/baska-standin.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT

echo "building a stand-in for $image from ${mirror:?no Debian mirror in the apt sources}"
debootstrap --variant=minbase --include=python3,python3-venv,python3-pip,python-is-python3,ca-certificates \
  bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 || { tail -n 30 "$rootfs.log"; exit 1; }
rm -f "$rootfs.log"
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
  chroot "$rootfs" update-ca-certificates >/dev/null
fi
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
tar -C "$rootfs" -c . | docker import \
  --change 'ENV LANG=C.UTF-8' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'LABEL org.opencontainers.image.description="stand-in built by docker/base-standin.sh"' \
  --change 'CMD ["python3"]' - "$image" >/dev/null
docker run --rm --network host "$image" python --version
