"""Checks deploy/ offline; run it through validate.sh, which provides the Python environment.

Three kinds of check, all of which must pass:

1. Schema: every Kubernetes object in deploy/base (and, when kubectl is available, the output of
   `kubectl kustomize deploy/base`) validates strictly, unknown fields refused, against each
   Kubernetes version asked for. An object whose kind or apiVersion has no schema is an error,
   not a warning: a typo there would otherwise pass.
2. Layout: every kustomization lists only files that exist, every manifest is listed by one, and
   the top-level kustomization reaches them all, so `kubectl apply -k deploy/base` ships everything.
3. Rules the schema cannot know: every service in services/ (except the launcher) has a
   Deployment, Service, HorizontalPodAutoscaler and PodDisruptionBudget; every container is
   non-root with a read-only root filesystem and has requests, limits and probes; gRPC services
   listen on 50051 with native gRPC probes and read DATABASE_URL from their own Secret; the edge
   knows every service's URL, trusts X-Forwarded-For and is reachable only under a NetworkPolicy; each microfrontend is routed by the Ingress and the manifest points
   at a version its shipped image serves (its own or an earlier one); nothing declares development
   (TIFFIN_ENV, GRPC_REFLECTION, TIFFIN_DEV_ROUTES) and the account service sends OTPs through its
   webhook, whose URL and secret come from Secret account-messages; every Tiffin pod reads
   TIFFIN_IDENTITY_PUBLIC_KEYS from ConfigMap tiffin-identity-public and only the edge, orders and
   cart a private identity key, each from its own Secret; the namespace enforces the restricted
   Pod Security Standard and every pod meets it (so Linkerd must run in CNI mode: its
   linkerd-init container needs NET_ADMIN, which restricted refuses); a pod that reaches NATS does
   so over TLS with credentials from a Secret.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import kubernetes_validate
import yaml

GRPC_PORT = 50051
# Services that are not deployed as their own pods.
NOT_DEPLOYED = {"launcher"}
MICROFRONTENDS = ["mfe-discovery", "mfe-cart", "mfe-checkout", "mfe-account", "mfe-desk"]


class Report:
    """Collects every failure so one run shows them all."""

    def __init__(self) -> None:
        self.failures: list[str] = []

    def fail(self, where: str, message: str) -> None:
        self.failures.append(f"{where}: {message}")

    def check(self, ok: bool, where: str, message: str) -> None:
        if not ok:
            self.fail(where, message)


def load_documents(path: Path, report: Report) -> list[dict]:
    try:
        docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
    except yaml.YAMLError as e:
        report.fail(str(path), f"not YAML: {e}")
        return []
    for doc in docs:
        if not isinstance(doc, dict) or "kind" not in doc or "apiVersion" not in doc:
            report.fail(str(path), "a document without kind and apiVersion")
    return [d for d in docs if isinstance(d, dict)]


def validate_schema(docs: list[tuple[str, dict]], versions: list[str], report: Report) -> None:
    for where, doc in docs:
        name = f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
        for version in versions:
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except kubernetes_validate.ValidationError as e:
                path = ".".join(str(p) for p in e.path)
                report.fail(where, f"{name} is invalid for Kubernetes {version}: {path}: {e.message}")
            except kubernetes_validate.SchemaNotFoundError:
                report.fail(where, f"{name}: no {doc.get('apiVersion')} {doc.get('kind')} in Kubernetes {version}")
            except kubernetes_validate.VersionNotSupportedError:
                report.fail("K8S_VERSIONS", f"kubernetes-validate has no schemas for {version}")
                return


def check_layout(base: Path, report: Report) -> list[Path]:
    """Walks the kustomizations from base; returns every manifest file they list."""
    listed: list[Path] = []
    seen_dirs: set[Path] = set()

    def walk(directory: Path) -> None:
        if directory in seen_dirs:
            return
        seen_dirs.add(directory)
        kfile = directory / "kustomization.yaml"
        if not kfile.is_file():
            report.fail(str(directory), "listed as a resource but has no kustomization.yaml")
            return
        kustomization = yaml.safe_load(kfile.read_text()) or {}
        for entry in kustomization.get("resources", []):
            target = (directory / entry).resolve()
            if target.is_dir():
                walk(target)
            elif target.is_file():
                listed.append(target)
            else:
                report.fail(str(kfile), f"resource {entry!r} does not exist")

    walk(base.resolve())
    on_disk = {p.resolve() for p in base.rglob("*.yaml") if p.name != "kustomization.yaml"}
    for orphan in sorted(on_disk - set(listed)):
        report.fail(str(orphan), "not listed by any kustomization reached from base/kustomization.yaml")
    for kfile in sorted(base.rglob("kustomization.yaml")):
        report.check(kfile.parent.resolve() in seen_dirs, str(kfile), "not reached from base/kustomization.yaml")
    return listed


def image_tags(base: Path) -> dict[str, str]:
    """Image name (as written in manifests) -> the tag its kustomization ships."""
    tags: dict[str, str] = {}
    for kfile in base.rglob("kustomization.yaml"):
        for image in (yaml.safe_load(kfile.read_text()) or {}).get("images", []):
            tags[image["name"]] = str(image.get("newTag", ""))
    return tags


def by_kind(docs: list[tuple[str, dict]], kind: str) -> dict[str, tuple[str, dict]]:
    return {d["metadata"]["name"]: (w, d) for w, d in docs if d.get("kind") == kind}


def env_of(container: dict) -> dict[str, dict]:
    return {e["name"]: e for e in container.get("env", [])}


def check_pod(where: str, name: str, deployment: dict, report: Report) -> None:
    spec = deployment["spec"]
    pod = spec["template"]["spec"]
    selector = spec["selector"].get("matchLabels", {})
    labels = spec["template"]["metadata"].get("labels", {})
    report.check(selector.items() <= labels.items(), where, f"{name}: the selector does not match the pod labels")
    report.check("replicas" not in spec, where, f"{name}: set no replicas; the HorizontalPodAutoscaler owns them")
    report.check(pod.get("automountServiceAccountToken") is False, where, f"{name}: mount no service account token")
    pod_security = pod.get("securityContext", {})
    for container in pod.get("initContainers", []) + pod["containers"]:
        cname = f"{name}/{container['name']}"
        security = container.get("securityContext", {})
        non_root = security.get("runAsNonRoot", pod_security.get("runAsNonRoot"))
        report.check(non_root is True, where, f"{cname}: must run as non-root")
        report.check(security.get("readOnlyRootFilesystem") is True, where, f"{cname}: root filesystem must be read-only")
        report.check(security.get("allowPrivilegeEscalation") is False, where, f"{cname}: must not escalate privileges")
        report.check("ALL" in security.get("capabilities", {}).get("drop", []), where, f"{cname}: must drop all capabilities")
        # The namespace enforces the restricted Pod Security Standard: the API server refuses
        # any other added capability (NET_ADMIN, say), and a pod without a seccomp profile.
        added = set(security.get("capabilities", {}).get("add", [])) - {"NET_BIND_SERVICE"}
        report.check(not added, where, f"{cname}: adds {sorted(added)}, which the restricted Pod Security Standard refuses")
        seccomp = security.get("seccompProfile", pod_security.get("seccompProfile", {})).get("type")
        report.check(seccomp in ("RuntimeDefault", "Localhost"), where, f"{cname}: needs a RuntimeDefault seccomp profile (restricted)")
        resources = container.get("resources", {})
        for part in ("requests", "limits"):
            for resource in ("cpu", "memory"):
                report.check(resource in resources.get(part, {}), where, f"{cname}: no {resource} {part}")
    for container in pod["containers"]:
        for probe in ("readinessProbe", "livenessProbe"):
            report.check(probe in container, where, f"{name}/{container['name']}: no {probe}")


def check_grpc_service(where: str, name: str, deployment: dict, report: Report) -> None:
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    ports = [p.get("containerPort") for p in container.get("ports", [])]
    report.check(ports == [GRPC_PORT], where, f"{name}: must expose exactly container port {GRPC_PORT}")
    env = env_of(container)
    report.check(env.get("GRPC_ADDR", {}).get("value") == f"0.0.0.0:{GRPC_PORT}", where, f"{name}: GRPC_ADDR must be 0.0.0.0:{GRPC_PORT}")
    secret = env.get("DATABASE_URL", {}).get("valueFrom", {}).get("secretKeyRef", {})
    report.check(
        secret.get("name") == f"{name}-database" and secret.get("key") == "DATABASE_URL",
        where,
        f"{name}: DATABASE_URL must come from Secret {name}-database (its own database)",
    )
    for probe in ("readinessProbe", "livenessProbe"):
        grpc = container.get(probe, {}).get("grpc", {})
        report.check(grpc.get("port") == GRPC_PORT, where, f"{name}: {probe} must be the native gRPC probe on {GRPC_PORT}")
    refs = [e.get("configMapRef", {}).get("name") for e in container.get("envFrom", [])]
    report.check("tiffin-telemetry" in refs, where, f"{name}: must read the shared tiffin-telemetry ConfigMap")


def check_companions(name: str, docs: list[tuple[str, dict]], report: Report) -> None:
    """A Deployment's Service, HorizontalPodAutoscaler and PodDisruptionBudget."""
    services = by_kind(docs, "Service")
    hpas = by_kind(docs, "HorizontalPodAutoscaler")
    pdbs = by_kind(docs, "PodDisruptionBudget")
    report.check(name in services, name, "no Service")
    if name in hpas:
        target = hpas[name][1]["spec"]["scaleTargetRef"]
        report.check(target.get("kind") == "Deployment" and target.get("name") == name, hpas[name][0], f"{name}: the autoscaler targets {target}")
    else:
        report.fail(name, "no HorizontalPodAutoscaler")
    report.check(name in pdbs, name, "no PodDisruptionBudget")


def served_by(image_tag: str | None, version: str | None) -> bool:
    """Whether a microfrontend image tagged `image_tag` serves `version`. Each image carries the
    versions before its own (deploy/Dockerfile.mfe), so the manifest may lag the image (ship the
    image, then switch the manifest) but never lead it."""
    if image_tag is None or version is None:
        return False

    def parts(v: str) -> tuple[int, ...] | None:
        try:
            return tuple(int(p) for p in v.split("."))
        except ValueError:
            return None

    tag, wanted = parts(image_tag), parts(version)
    if tag is None or wanted is None:
        return image_tag == version
    return wanted <= tag


def check_rules(docs: list[tuple[str, dict]], services_dir: Path, tags: dict[str, str], report: Report) -> None:
    deployments = by_kind(docs, "Deployment")
    services = sorted(p.name for p in services_dir.iterdir() if (p / "Cargo.toml").is_file() and p.name not in NOT_DEPLOYED)
    for service in services:
        report.check(service in deployments, f"services/{service}", "has no Deployment in deploy/base")

    for name, (where, deployment) in deployments.items():
        check_pod(where, name, deployment, report)
        check_companions(name, docs, report)
        component = deployment["metadata"].get("labels", {}).get("app.kubernetes.io/component")
        if component == "grpc-service":
            check_grpc_service(where, name, deployment, report)

    # What only development may have is never declared in a deployment: the OTP outbox, the
    # routes that read it and gRPC reflection.
    for name, (where, deployment) in deployments.items():
        for container in deployment["spec"]["template"]["spec"]["containers"]:
            env = env_of(container)
            report.check(
                env.get("TIFFIN_ENV", {}).get("value", "production") == "production",
                where,
                f"{name}: TIFFIN_ENV must be unset or production (development exposes every OTP)",
            )
            for switch in ("GRPC_REFLECTION", "TIFFIN_DEV_ROUTES"):
                report.check(env.get(switch, {}).get("value", "0") == "0", where, f"{name}: {switch} is development only")
    # Identity between pods: every Tiffin pod checks tokens with the public keys; only the edge
    # and the services that call others (orders, cart, support) hold a private key, each its own, from a
    # Secret no other pod reads. The old shared HS256 key is gone.
    signers = {"edge", "orders", "cart", "support"}
    for name, (where, deployment) in deployments.items():
        pod = deployment["spec"]["template"]["spec"]
        meshed = deployment["metadata"].get("labels", {}).get("app.kubernetes.io/component") in ("edge", "grpc-service")
        for container in pod.get("initContainers", []) + pod["containers"]:
            env = env_of(container)
            report.check("TIFFIN_IDENTITY_KEY" not in env, where, f"{name}: TIFFIN_IDENTITY_KEY is no longer read (identity keys are per signer)")
            if meshed and container in pod["containers"]:
                ref = env.get("TIFFIN_IDENTITY_PUBLIC_KEYS", {}).get("valueFrom", {}).get("configMapKeyRef", {})
                report.check(ref.get("name") == "tiffin-identity-public", where, f"{name}: TIFFIN_IDENTITY_PUBLIC_KEYS must come from ConfigMap tiffin-identity-public")
            ref = env.get("TIFFIN_IDENTITY_SIGNING_KEY", {}).get("valueFrom", {}).get("secretKeyRef", {})
            if name in signers and container is pod["containers"][0]:
                report.check(ref.get("name") == f"tiffin-identity-{name}", where, f"{name}: TIFFIN_IDENTITY_SIGNING_KEY must come from Secret tiffin-identity-{name}")
            else:
                report.check("TIFFIN_IDENTITY_SIGNING_KEY" not in env, where, f"{name}/{container['name']}: only the edge, orders, cart and support hold a private identity key")
        # No pod reads another signer's Secret by any route (env, envFrom, a volume).
        text = json.dumps(pod)
        for signer in signers - {name}:
            report.check(f'"tiffin-identity-{signer}"' not in text, where, f"{name}: must not read Secret tiffin-identity-{signer}")
    # A pod that talks to NATS does so with credentials from a Secret, never openly: anyone who
    # reaches an open server can delete the orders stream.
    for name, (where, deployment) in deployments.items():
        for container in deployment["spec"]["template"]["spec"]["containers"]:
            env = env_of(container)
            if "NATS_URL" not in env:
                continue
            secret_backed = any(
                env.get(var, {}).get("valueFrom", {}).get("secretKeyRef")
                for var in ("NATS_CREDS", "NATS_PASSWORD", "NATS_TOKEN")
            )
            report.check(secret_backed, where, f"{name}: NATS_URL needs NATS_CREDS, NATS_PASSWORD or NATS_TOKEN from a Secret")
            if "NATS_DISPATCH_USER" in env or "NATS_DISPATCH_PASSWORD" in env:
                report.check(
                    bool(env.get("NATS_DISPATCH_PASSWORD", {}).get("valueFrom", {}).get("secretKeyRef")),
                    where,
                    f"{name}: NATS_DISPATCH_PASSWORD must come from a Secret",
                )
            url = env["NATS_URL"].get("value", "")
            report.check(url.startswith("tls://") or "NATS_CA_FILE" in env, where, f"{name}: NATS must be reached over TLS (tls:// or NATS_CA_FILE)")
    if "account" in deployments:
        where, account = deployments["account"]
        env = env_of(account["spec"]["template"]["spec"]["containers"][0])
        report.check(env.get("ACCOUNT_MESSAGES", {}).get("value") == "webhook", where, "account: ACCOUNT_MESSAGES must be webhook")
        for var in ("ACCOUNT_MESSAGES_WEBHOOK_URL", "ACCOUNT_MESSAGES_WEBHOOK_SECRET"):
            ref = env.get(var, {}).get("valueFrom", {}).get("secretKeyRef", {})
            report.check(ref.get("name") == "account-messages", where, f"account: {var} must come from Secret account-messages")

    # Payments take money through a real gateway only: the sandbox's test cards always pay and its
    # OTP is published, so it (and its wallets) is development only; the callbacks' secret and the
    # gateway's own keys come from Secrets, never from the manifest.
    if "payments" in deployments:
        where, payments = deployments["payments"]
        env = env_of(payments["spec"]["template"]["spec"]["containers"][0])
        gateway = env.get("PAYMENTS_GATEWAY", {}).get("value", "").strip().lower()
        report.check(gateway not in ("", "sandbox"), where, "payments: PAYMENTS_GATEWAY must name a real gateway (the sandbox is development only)")
        wallets = env.get("PAYMENTS_WALLETS", {}).get("value", "none").strip().lower()
        report.check(wallets != "sandbox", where, "payments: PAYMENTS_WALLETS=sandbox is development only")
        secrets = ["PAYMENTS_WEBHOOK_SECRET"]
        if gateway == "razorpay":
            secrets += ["RAZORPAY_KEY_ID", "RAZORPAY_KEY_SECRET", "RAZORPAY_WEBHOOK_SECRET"]
        for var in secrets:
            ref = env.get(var, {}).get("valueFrom", {}).get("secretKeyRef", {})
            report.check(bool(ref.get("name") and ref.get("key")), where, f"payments: {var} must come from a Secret")

    # The namespace: restricted enforced, and a mesh that injects no privileged init container.
    namespaces = by_kind(docs, "Namespace")
    if "tiffin" in namespaces:
        where, namespace = namespaces["tiffin"]
        labels = namespace["metadata"].get("labels", {})
        annotations = namespace["metadata"].get("annotations", {})
        report.check(labels.get("pod-security.kubernetes.io/enforce") == "restricted", where, "the namespace must enforce the restricted Pod Security Standard")
        if annotations.get("linkerd.io/inject") == "enabled":
            # Linkerd's default injection adds linkerd-init (NET_ADMIN, NET_RAW), which restricted
            # refuses: the pods would never start. Its CNI plugin does that work on the node instead.
            report.check(
                annotations.get("tiffin.dev/linkerd-cni") == "required",
                where,
                "linkerd.io/inject under restricted needs Linkerd's CNI plugin: annotate tiffin.dev/linkerd-cni: required and install Linkerd with it (deploy/README.md)",
            )
    else:
        report.fail("deploy/base", "no tiffin Namespace")

    grpc_services = [n for n, (_, d) in deployments.items() if d["metadata"]["labels"].get("app.kubernetes.io/component") == "grpc-service"]
    if "edge" in deployments:
        where, edge = deployments["edge"]
        env = env_of(edge["spec"]["template"]["spec"]["containers"][0])
        for service in grpc_services:
            url = env.get(f"{service.upper()}_URL", {}).get("value")
            report.check(url == f"http://{service}:{GRPC_PORT}", where, f"edge: {service.upper()}_URL must be http://{service}:{GRPC_PORT}")
        # Behind the Ingress the TCP peer is the controller: without this every customer shares
        # one rate-limit bucket.
        trusted = env.get("EDGE_TRUST_FORWARDED_FOR", {}).get("value")
        report.check(trusted == "1", where, "edge: EDGE_TRUST_FORWARDED_FOR must be \"1\" (it runs behind the Ingress)")
        edge_policies = [
            p for _, p in by_kind(docs, "NetworkPolicy").values()
            if p["spec"].get("podSelector", {}).get("matchLabels", {}).get("app.kubernetes.io/component") == "edge"
        ]
        report.check(bool(edge_policies), where, "edge: a NetworkPolicy must admit only the ingress controller (it trusts X-Forwarded-For)")
    else:
        report.fail("deploy/base", "no edge Deployment")

    # Microfrontends: routed at /mfe/<id>/, and the manifest names the version that is shipped.
    routes = {}
    for where, ingress in by_kind(docs, "Ingress").values():
        for rule in ingress["spec"].get("rules", []):
            for path in rule.get("http", {}).get("paths", []):
                routes[path["path"]] = path["backend"]["service"]["name"]
    manifests = by_kind(docs, "ConfigMap")
    manifest = {}
    if "mfe-manifest" in manifests:
        where, config_map = manifests["mfe-manifest"]
        try:
            manifest = json.loads(config_map["data"]["mfe-manifest.json"])
        except (KeyError, json.JSONDecodeError) as e:
            report.fail(where, f"mfe-manifest.json is not JSON: {e}")
    else:
        report.fail("deploy/base", "no mfe-manifest ConfigMap")
    report.check("/" in routes and routes["/"] == "edge", "Ingress", "/ must go to the edge")
    for mfe in MICROFRONTENDS:
        report.check(mfe in deployments, mfe, "no Deployment")
        report.check(routes.get(f"/mfe/{mfe}/") == mfe, "Ingress", f"/mfe/{mfe}/ must go to Service {mfe}")
        entry = manifest.get(mfe)
        if entry is None:
            report.fail("mfe-manifest", f"no entry for {mfe}")
            continue
        shipped = tags.get(f"tiffin-{mfe}")
        version = entry.get("version")
        report.check(
            served_by(shipped, version),
            "mfe-manifest",
            f"{mfe} is at {version} but its kustomization ships {shipped}, which cannot serve it",
        )
        report.check(entry.get("entry") == f"/mfe/{mfe}/{version}/remoteEntry.js", "mfe-manifest", f"{mfe}: entry must be /mfe/{mfe}/{version}/remoteEntry.js")
        report.check(entry.get("name") == mfe.replace("-", "_"), "mfe-manifest", f"{mfe}: name must be its federation name {mfe.replace('-', '_')}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deploy-dir", type=Path, required=True)
    parser.add_argument("--services-dir", type=Path, required=True)
    parser.add_argument("--rendered", type=Path, help="output of `kubectl kustomize deploy/base`")
    parser.add_argument("--k8s-versions", nargs="+", required=True)
    args = parser.parse_args()

    report = Report()
    base = args.deploy_dir / "base"
    listed = check_layout(base, report)
    docs = [(str(path.relative_to(args.deploy_dir.resolve().parent)), doc) for path in listed for doc in load_documents(path, report)]
    validate_schema(docs, args.k8s_versions, report)
    check_rules(docs, args.services_dir, image_tags(base), report)
    if args.rendered:
        rendered = [("kustomize output", doc) for doc in load_documents(args.rendered, report)]
        report.check(len(rendered) == len(docs), "kustomize output", f"{len(rendered)} objects, but the files hold {len(docs)}")
        validate_schema(rendered, args.k8s_versions, report)

    if report.failures:
        for failure in report.failures:
            print(f"FAIL {failure}", file=sys.stderr)
        print(f"deploy/ is invalid: {len(report.failures)} problem(s).", file=sys.stderr)
        return 1
    kinds = sorted({d["kind"] for _, d in docs})
    rendered_note = "and the kustomize output " if args.rendered else ""
    print(f"deploy/ is valid: {len(docs)} objects ({', '.join(kinds)}) {rendered_note}"
          f"against Kubernetes {', '.join(args.k8s_versions)}, strict.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
