#!/usr/bin/env bash
# Validates every manifest in deploy/ offline, with no cluster: strict schema validation with the
# Python package kubernetes-validate, plus the rules in validate.py (every service has a
# Deployment, pods are hardened, probes and routes are in place). Exits non-zero on any problem.
#
#   deploy/validate.sh                  # checks this checkout
#   K8S_VERSIONS="1.34.0" deploy/validate.sh
#   deploy/validate.sh /path/to/deploy  # checks another copy (services/ is looked up beside it)
#
# kubernetes-validate is installed from PyPI into a venv under
# ${XDG_CACHE_HOME:-$HOME/.cache}/tiffin/venv the first time, and reused after that.
# When kubectl is on PATH, the kustomize output is validated as well (it is optional: the
# manifests themselves are complete objects, so the checks above do not need it).
set -euo pipefail

DEPLOY_DIR="$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")}" && pwd)"
SERVICES_DIR="$(cd "$DEPLOY_DIR/.." && pwd)/services"
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/tiffin/venv"
# Pinned so that a new release's schemas cannot change the verdict on unchanged manifests.
KUBERNETES_VALIDATE_VERSION="1.37.0"
# The oldest Kubernetes we support and the newest there are schemas for: an API removed or not
# yet available at either end fails here.
read -r -a K8S_VERSIONS <<< "${K8S_VERSIONS:-1.33.0 1.37.0}"

installed_version() {
    "$VENV/bin/python" - <<'EOF' 2>/dev/null
import importlib.metadata, yaml
print(importlib.metadata.version("kubernetes-validate"))
EOF
}

if [[ "$(installed_version || true)" != "$KUBERNETES_VALIDATE_VERSION" ]]; then
    echo "installing kubernetes-validate $KUBERNETES_VALIDATE_VERSION into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
fi

rendered_args=()
if command -v kubectl >/dev/null 2>&1; then
    rendered="$(mktemp)"
    trap 'rm -f "$rendered"' EXIT
    if ! kubectl kustomize "$DEPLOY_DIR/base" > "$rendered"; then
        echo "FAIL kubectl kustomize $DEPLOY_DIR/base did not render" >&2
        exit 1
    fi
    rendered_args=(--rendered "$rendered")
else
    echo "note: kubectl not found; the kustomize output itself is not checked" >&2
fi

"$VENV/bin/python" "$DEPLOY_DIR/validate.py" \
    --deploy-dir "$DEPLOY_DIR" \
    --services-dir "$SERVICES_DIR" \
    --k8s-versions "${K8S_VERSIONS[@]}" \
    "${rendered_args[@]}"
