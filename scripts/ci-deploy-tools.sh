#!/usr/bin/env bash
# Installs what tests/contract/deploy.test.ts checks the deploy/ files with, from Debian's
# packages, only when missing: nginx (`nginx -t`), openssl (a throwaway certificate) and systemd
# (`systemd-analyze verify`). Run by .ci/run as root; elsewhere the test skips with a reason when
# one is missing. A policy-rc.d keeps the nginx package from starting its daemon.
set -uo pipefail
missing=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null || missing+=(openssl)
command -v systemd-analyze >/dev/null || missing+=(systemd)
[ "${#missing[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "ci-deploy-tools: ${missing[*]} missing and not installable here (needs root and apt-get)" >&2
  exit 1
fi
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
fi
echo "ci-deploy-tools: installing ${missing[*]}"
apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
status=$?
if [ "$made_policy" -eq 1 ]; then rm -f "$policy"; fi
exit "$status"
