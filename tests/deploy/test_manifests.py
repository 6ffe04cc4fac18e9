"""deploy/ validated without a container engine: each file by its own tool, and the files against each other.

Tools: kubernetes-validate (manifests against the Kubernetes schemas), check-jsonschema (the compose file
against the Compose Specification's schema, vendored in deploy/schemas/), `haproxy -c`, `promtool check
config` / `promtool test rules`, yamllint, `systemd-analyze verify`, the official Dockerfile parser, and
Debian's redis-server for the Redis and Sentinel configurations. A test whose tool is absent here skips and
says which package brings it; .ci/run installs them.
"""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from server.__main__ import build_parser
from server.config import Settings
from server.metrics import Metrics
from server.store import parse_sentinel_url

from .conftest import DEPLOY, ROOT, Processes, free_port, tool, wait_port

K8S = DEPLOY / "k8s"
#: need a controller or operator that a bare cluster lacks (validated by the consistency tests below)
K8S_OPTIONAL = {"servicemonitor.yaml", "ingress.yaml"}
#: the oldest Kubernetes release the manifests are meant for, and the newest schemas the package knows
K8S_VERSIONS = ("1.29.0", None)


def _yaml_files() -> list[Path]:
    return sorted(p for p in DEPLOY.rglob("*") if p.suffix in (".yaml", ".yml"))


def _docs(path: Path) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d is not None]


def _k8s(kind: str, name: str | None = None) -> dict[str, Any]:
    for path in sorted(K8S.glob("*.yaml")):
        for doc in _docs(path):
            if doc.get("kind") == kind and (name is None or doc["metadata"]["name"] == name):
                return doc
    raise AssertionError(f"no {kind} {name or ''} in deploy/k8s")


def _settings_from_env(env: dict[str, str]) -> Settings:
    """The settings a node would run with under these MARCOPOLO_* variables (each must name a field)."""
    fields = {}
    for key, value in env.items():
        assert key.startswith("MARCOPOLO_"), key
        name = key.removeprefix("MARCOPOLO_").lower()
        assert name in Settings.model_fields, f"{key} is not a setting"
        fields[name] = value
    return Settings(**fields)


def _run(args: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=60, **kw)


# ---- YAML -------------------------------------------------------------------------------------------


def test_every_yaml_file_of_deploy_passes_yamllint() -> None:
    from yamllint import linter
    from yamllint.config import YamlLintConfig

    conf = YamlLintConfig(file=str(DEPLOY / ".yamllint.yaml"))
    problems = [
        f"{p.relative_to(ROOT)}:{e.line}: {e.message}" for p in _yaml_files() for e in linter.run(p.read_text(), conf)
    ]
    assert problems == []
    assert list(linter.run("a:\n   b: 1\n  c: 2\n", conf)), "the lint configuration finds nothing at all"


# ---- compose -----------------------------------------------------------------------------------------


def _compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def _interpolated(value: str) -> str:
    """A compose value as compose fills it with no variable set: `${VAR:-default}` is the default."""
    assert not re.search(r"\$\{\w+\}|\$\{\w+:?[?+]", value), f"{value!r}: give every variable a default"
    return re.sub(r"\$\{\w+:?-([^}]*)\}", r"\1", value)


def test_the_compose_file_is_valid_against_the_compose_specification(tmp_path: Path) -> None:
    schema = DEPLOY / "schemas" / "compose-spec.json"
    ok = _run([sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema), str(DEPLOY / "compose.yaml")])
    assert ok.returncode == 0, ok.stdout + ok.stderr
    broken = tmp_path / "compose.yaml"
    broken.write_text((DEPLOY / "compose.yaml").read_text().replace("    image: haproxy:2.8", "    imag: haproxy:2.8"))
    bad = _run([sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema), str(broken)])
    assert bad.returncode != 0 and "imag" in bad.stdout + bad.stderr


def test_the_compose_topology_is_three_nodes_on_one_redis_behind_haproxy_scraped_by_prometheus() -> None:
    services = _compose()["services"]
    nodes = sorted(s for s in services if re.fullmatch(r"node\d", s))
    assert nodes == ["node1", "node2", "node3"]
    settings = {n: _settings_from_env(services[n]["environment"]) for n in nodes}
    assert len({s.node_id for s in settings.values()}) == 3, "node ids must differ"
    assert len({(s.store, s.prefix) for s in settings.values()}) == 1, "one store and prefix: one cluster"
    assert all(s.host == "0.0.0.0" and s.port == 8765 for s in settings.values())
    for n in nodes:
        assert services[n]["build"]["dockerfile"] == "deploy/Dockerfile"
        assert (DEPLOY / services[n]["build"]["context"] / services[n]["build"]["dockerfile"]).is_file()

    haproxy = (DEPLOY / "haproxy" / "haproxy.cfg").read_text()
    # every node in both backends: `nodes` (leastconn) and `rooms` (routing by room, tracking the first's checks)
    assert re.findall(r"^\s*server (\S+) (\S+)", haproxy, re.M) == [(n, f"{n}:8765") for n in nodes] * 2
    assert "8080:8080" in services["proxy"]["ports"]

    prom = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    job = next(j for j in prom["scrape_configs"] if j["job_name"] == "marcopolo")
    assert job["metrics_path"] == "/metrics"
    assert sorted(t for sc in job["static_configs"] for t in sc["targets"]) == [f"{n}:8765" for n in nodes]

    # a primary, a replica of it, and an odd number of sentinels with a majority quorum
    assert "--replicaof" in services["redis-replica"]["command"]
    sentinels = [s for s in services if s.startswith("sentinel")]
    conf = (DEPLOY / "redis" / "sentinel.conf").read_text()
    host, port, quorum = re.search(r"sentinel monitor mymaster (\S+) (\d+) (\d+)", conf).groups()  # type: ignore[union-attr]
    assert host == "redis-primary" and host in services and port == "6379"
    assert len(sentinels) >= 3 and len(sentinels) % 2 == 1 and int(quorum) > len(sentinels) // 2


def test_the_compose_nodes_find_redis_through_every_sentinel_and_share_the_postgres_records() -> None:
    compose = _compose()
    services = compose["services"]
    nodes = sorted(s for s in services if re.fullmatch(r"node\d", s))
    sentinels = sorted(s for s in services if s.startswith("sentinel"))
    envs = [services[n]["environment"] for n in nodes]
    assert len({(e["MARCOPOLO_STORE"], e["MARCOPOLO_RECORDS"]) for e in envs}) == 1, "one store, one records db"

    # the store: the primary the sentinels of sentinel.conf name, asked of all three (so a promotion is followed)
    conf = (DEPLOY / "redis" / "sentinel.conf").read_text()
    port = int(re.search(r"^port (\d+)$", conf, re.M).group(1))  # type: ignore[union-attr]
    service = re.search(r"sentinel monitor (\S+) ", conf).group(1)  # type: ignore[union-attr]
    store = envs[0]["MARCOPOLO_STORE"]
    assert store.startswith("redis+sentinel://")
    where = parse_sentinel_url(store)
    assert where.sentinels == [(s, port) for s in sentinels] and where.service == service
    for n in nodes:
        assert set(sentinels) <= set(services[n]["depends_on"])

    # the records: the postgres service, with its user, password and database, healthy before the nodes start
    pg = services["postgres"]
    assert pg["image"].split(":")[0] == "postgres" and int(pg["image"].split(":")[1]) >= 16
    records = envs[0]["MARCOPOLO_RECORDS"]
    assert records.startswith("postgresql://")
    url = urlsplit(_interpolated(records))
    assert url.hostname == "postgres" and url.port == 5432
    assert url.username == pg["environment"]["POSTGRES_USER"] and url.path == "/" + pg["environment"]["POSTGRES_DB"]
    assert url.password == _interpolated(pg["environment"]["POSTGRES_PASSWORD"])
    assert "${" in pg["environment"]["POSTGRES_PASSWORD"], "the password comes from the environment (a default)"
    assert _settings_from_env({k: _interpolated(v) for k, v in envs[0].items()}).records == _interpolated(records)
    assert pg["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    for n in nodes:
        assert services[n]["depends_on"]["postgres"]["condition"] == "service_healthy"
    # its data in a named volume, so `compose down` + `up` keeps the records
    volume = next(v for v in pg["volumes"] if v.endswith(":/var/lib/postgresql/data"))
    assert volume.split(":")[0] in compose["volumes"]


def test_every_file_the_compose_file_mounts_exists() -> None:
    services = _compose()["services"]
    mounts = [v.split(":")[0] for s in services.values() for v in s.get("volumes", []) if v.startswith("./")]
    assert len(mounts) >= 6
    for src in mounts:
        assert (DEPLOY / src).exists(), src
    grafana = services["grafana"]
    targets = {v.split(":")[1]: v.split(":")[0] for v in grafana["volumes"] if v.startswith("./")}
    provider = yaml.safe_load((DEPLOY / "grafana/provisioning/dashboards/marcopolo.yaml").read_text())
    dash_dir = provider["providers"][0]["options"]["path"]
    assert (DEPLOY / targets[dash_dir] / "marcopolo.json").is_file()
    assert grafana["environment"]["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"] == f"{dash_dir}/marcopolo.json"


# ---- HAProxy, Prometheus, Grafana --------------------------------------------------------------------


def test_the_haproxy_config_passes_haproxy_check() -> None:
    haproxy = tool("haproxy", "Debian package haproxy")
    out = _run([haproxy, "-c", "-f", str(DEPLOY / "haproxy" / "haproxy.cfg")])
    assert out.returncode == 0, out.stdout + out.stderr
    warnings = [line for line in (out.stdout + out.stderr).splitlines() if "WARNING" in line or "ALERT" in line]
    # the node names resolve only inside compose's network; nothing else may be amiss
    assert all("could not resolve address" in w for w in warnings), warnings


def _haproxy_sections() -> dict[str, list[str]]:
    """deploy/haproxy/haproxy.cfg's sections (`backend rooms`, ...) and their lines, comments dropped."""
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    for raw in (DEPLOY / "haproxy" / "haproxy.cfg").read_text().splitlines():
        line = raw.split("#")[0].strip()
        if line and not raw[0].isspace():
            current = sections.setdefault(line, [])
        elif line:
            current.append(line)
    return sections


def test_the_haproxy_config_routes_by_room_else_by_fewest_sockets_and_keeps_idle_websockets_open() -> None:
    sections = _haproxy_sections()
    lines = [line for body in sections.values() for line in body]
    # no stickiness to a node: routing by room is a hash of the room id, and any node still serves any room
    assert not [line for line in lines if line.split()[0] in ("cookie", "stick", "stick-table")]
    game = sections["frontend game"]
    assert "default_backend nodes" in game
    assert "use_backend rooms if { path /ws } { urlp(room) -m found }" in game, "only sockets naming a room are hashed"
    assert [x for x in sections["backend nodes"] if x.startswith("balance ")] == ["balance leastconn"]
    rooms = sections["backend rooms"]
    assert "balance url_param room" in rooms and "hash-type consistent" in rooms
    servers = [x.split() for x in rooms if x.startswith("server ")]
    assert servers and all(x[3:] == ["track", f"nodes/{x[1]}"] for x in servers), "rooms' servers track the checks"
    tunnel = next(line for line in lines if line.startswith("timeout tunnel "))
    value = tunnel.split()[2]
    seconds = int(value[:-1]) * {"s": 1, "m": 60, "h": 3600}[value[-1]]
    assert seconds > 20, "an idle game's socket must outlive the server's 20 s ping interval"
    assert "option httpchk GET /healthz" in lines and any(line.startswith("option redispatch") for line in lines)


def test_the_prometheus_config_and_alert_rules_pass_promtool() -> None:
    promtool = tool("promtool", "Debian package prometheus")
    out = _run([promtool, "check", "config", str(DEPLOY / "prometheus" / "prometheus.yml")])
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 rule files found" in out.stdout + out.stderr
    tests = _run([promtool, "test", "rules", "rules_test.yml"], cwd=DEPLOY / "prometheus")
    assert tests.returncode == 0, tests.stdout + tests.stderr


def _exposed_metric_names() -> set[str]:
    """Every series name server/metrics.py exposes (with _total, _bucket, _count, _sum)."""
    m = Metrics()
    m.rooms.labels("expedition", "playing").set(1)
    for c in (m.messages_in, m.messages_out, m.errors, m.auth_failures, m.accounts, m.admin_actions):
        c.labels("x").inc()
    m.tables.labels("rooms").set(1)
    m.bytes_out.inc()
    m.move_latency.observe(0.01)
    m.store_latency.labels("append").observe(0.01)
    text = m.render().decode()
    return {line.split("{")[0].split(" ")[0] for line in text.splitlines() if line and not line.startswith("#")}


def _dashboard() -> dict[str, Any]:
    return json.loads((DEPLOY / "grafana" / "dashboards" / "marcopolo.json").read_text())


def test_the_grafana_dashboard_queries_only_metrics_the_server_exposes(tmp_path: Path) -> None:
    dash = _dashboard()
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    assert len(exprs) >= 10
    exposed = _exposed_metric_names()
    used = {name for e in exprs for name in re.findall(r"\b(mp_[a-z_]+)", e)}
    assert used - exposed == set(), f"not exposed by server/metrics.py: {used - exposed}"
    families = {re.sub(r"_(total|bucket|count|sum|created)$", "", n) for n in exposed}
    assert {re.sub(r"_(total|bucket|count|sum)$", "", n) for n in used} == families, "a metric has no panel"
    # the PromQL itself parses: promtool checks it as recording rules
    promtool = tool("promtool", "Debian package prometheus")
    recording = [{"record": f"panel:{i}", "expr": e} for i, e in enumerate(exprs)]
    rules = {"groups": [{"name": "dashboard", "rules": recording}]}
    path = tmp_path / "dashboard_rules.yml"
    path.write_text(yaml.safe_dump(rules))
    out = _run([promtool, "check", "rules", str(path)])
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_grafana_dashboard_uses_the_provisioned_data_source_and_its_panels_do_not_overlap() -> None:
    dash = _dashboard()
    ds = yaml.safe_load((DEPLOY / "grafana/provisioning/datasources/prometheus.yaml").read_text())["datasources"][0]
    prom_host = ds["url"].split("//")[1].split(":")[0]
    assert prom_host in _compose()["services"]
    cells: set[tuple[int, int]] = set()
    ids = [p["id"] for p in dash["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dash["panels"]:
        assert panel["datasource"]["uid"] == ds["uid"]
        assert all(t["datasource"]["uid"] == ds["uid"] for t in panel["targets"])
        g = panel["gridPos"]
        assert g["x"] + g["w"] <= 24
        mine = {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}
        assert not cells & mine, f"panel {panel['title']!r} overlaps another"
        cells |= mine


# ---- Kubernetes --------------------------------------------------------------------------------------


def _manifests() -> list[tuple[Path, dict[str, Any]]]:
    return [(p, d) for p in sorted(K8S.glob("*.yaml")) if p.name != "kustomization.yaml" for d in _docs(p)]


@pytest.mark.parametrize("version", K8S_VERSIONS, ids=lambda v: v or "latest")
def test_every_kubernetes_manifest_is_valid_against_the_kubernetes_schemas(version: str | None) -> None:
    import kubernetes_validate

    version = version or kubernetes_validate.latest_version()
    checked = 0
    for path, doc in _manifests():
        if path.name == "servicemonitor.yaml":
            continue  # a CRD of the Prometheus Operator: no schema in the package (see the consistency test)
        kubernetes_validate.validate(doc, version, strict=True)
        checked += 1
    assert checked >= 11
    bad = _k8s("Deployment")
    bad["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {"httpGet": {"path": "/healthz"}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, version, strict=True)


def test_the_kustomization_lists_every_required_manifest() -> None:
    kust = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    listed = set(kust["resources"])
    present = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed <= present
    assert present - listed == K8S_OPTIONAL


def test_the_deployment_probes_healthz_hands_over_on_stop_and_runs_as_the_images_user() -> None:
    dep = _k8s("Deployment", "marcopolo")
    pod = dep["spec"]["template"]["spec"]
    (c,) = pod["containers"]
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert c[probe]["httpGet"]["path"] == "/healthz" and c[probe]["httpGet"]["port"] in ports
    # the liveness probe tolerates a store outage longer than readiness does
    live, ready = c["livenessProbe"], c["readinessProbe"]
    assert live["periodSeconds"] * live["failureThreshold"] > ready["periodSeconds"] * ready["failureThreshold"]
    pre_stop = c["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep" and pod["terminationGracePeriodSeconds"] >= int(pre_stop[1]) + 20
    assert dep["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    # the node id is the pod's name (unique); the rest comes from the ConfigMap
    env = {e["name"]: e for e in c["env"]}
    assert env["MARCOPOLO_NODE_ID"]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    cm = _k8s("ConfigMap", c["envFrom"][0]["configMapRef"]["name"])
    settings = _settings_from_env(cm["data"])
    assert settings.port == ports["http"] and settings.host == "0.0.0.0"
    assert settings.store.startswith("redis://")
    annotations = dep["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true" and annotations["prometheus.io/path"] == "/metrics"
    assert int(annotations["prometheus.io/port"]) == ports["http"]
    sec = pod["securityContext"]
    assert sec["runAsNonRoot"] is True and str(sec["runAsUser"]) == _dockerfile_user().split(":")[0]


def test_the_service_pdb_and_servicemonitor_select_the_deployments_pods() -> None:
    dep = _k8s("Deployment", "marcopolo")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    assert dep["spec"]["selector"]["matchLabels"].items() <= labels.items()
    svc = _k8s("Service", "marcopolo")
    assert svc["spec"]["selector"].items() <= labels.items()
    assert "sessionAffinity" not in svc["spec"]
    port_names = {p["name"] for p in dep["spec"]["template"]["spec"]["containers"][0]["ports"]}
    assert {p["targetPort"] for p in svc["spec"]["ports"]} <= port_names
    pdb = _k8s("PodDisruptionBudget")
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert pdb["spec"]["maxUnavailable"] < dep["spec"]["replicas"]
    sm = _k8s("ServiceMonitor")
    assert sm["spec"]["selector"]["matchLabels"].items() <= svc["metadata"]["labels"].items()
    assert {e["port"] for e in sm["spec"]["endpoints"]} <= {p["name"] for p in svc["spec"]["ports"]}
    ing = _k8s("Ingress")
    backend = ing["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == "marcopolo" and backend["port"]["name"] in {p["name"] for p in svc["spec"]["ports"]}


def test_the_configmaps_store_url_names_the_redis_statefulsets_pod() -> None:
    sts = _k8s("StatefulSet", "redis")
    headless = _k8s("Service", sts["spec"]["serviceName"])
    assert headless["spec"]["clusterIP"] == "None"
    assert headless["spec"]["selector"].items() <= sts["spec"]["template"]["metadata"]["labels"].items()
    ns = sts["metadata"]["namespace"]
    store = _settings_from_env(_k8s("ConfigMap", "marcopolo")["data"]).store
    assert store == f"redis://{sts['metadata']['name']}-0.{headless['metadata']['name']}.{ns}.svc.cluster.local:6379/0"
    args = sts["spec"]["template"]["spec"]["containers"][0]["args"]
    assert args[args.index("--appendonly") + 1] == "yes"
    assert sts["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"


def _secret_ref(env: dict[str, Any], name: str) -> tuple[str, str]:
    ref = env[name]["valueFrom"]["secretKeyRef"]
    return ref["name"], ref["key"]


def test_the_nodes_records_url_names_the_postgres_statefulsets_pod_and_takes_the_password_from_its_secret() -> None:
    sts = _k8s("StatefulSet", "postgres")
    headless = _k8s("Service", sts["spec"]["serviceName"])
    assert headless["spec"]["clusterIP"] == "None"
    assert headless["spec"]["selector"].items() <= sts["spec"]["template"]["metadata"]["labels"].items()
    (pg,) = sts["spec"]["template"]["spec"]["containers"]
    assert pg["image"].split(":")[0] == "postgres" and int(pg["image"].split(":")[1]) >= 16
    pg_env = {e["name"]: e for e in pg["env"]}

    dep = _k8s("Deployment", "marcopolo")
    (c,) = dep["spec"]["template"]["spec"]["containers"]
    names = [e["name"] for e in c["env"]]
    env = {e["name"]: e for e in c["env"]}
    records = env["MARCOPOLO_RECORDS"]["value"]
    assert records.startswith("postgresql://")
    url = urlsplit(records)
    # Kubernetes fills $(VAR) only from a variable listed before it: the password, from the same Secret
    var = re.fullmatch(r"\$\((\w+)\)", url.password or "").group(1)  # type: ignore[union-attr]
    assert names.index(var) < names.index("MARCOPOLO_RECORDS")
    assert not var.startswith("MARCOPOLO_"), "not a setting of its own"
    assert _secret_ref(env, var) == _secret_ref(pg_env, "POSTGRES_PASSWORD")
    secret = _k8s("Secret", _secret_ref(env, var)[0])
    assert _secret_ref(env, var)[1] in secret.get("stringData", secret.get("data", {}))
    assert url.hostname == f"{sts['metadata']['name']}-0.{headless['metadata']['name']}"
    assert dep["metadata"]["namespace"] == sts["metadata"]["namespace"], "the short name resolves in its namespace"
    assert url.port == pg["ports"][0]["containerPort"] == headless["spec"]["ports"][0]["port"]
    assert url.username == pg_env["POSTGRES_USER"]["value"] and url.path == "/" + pg_env["POSTGRES_DB"]["value"]
    assert _settings_from_env({"MARCOPOLO_RECORDS": records}).records == records
    # no ConfigMap holds a URL with a password
    cm = _k8s("ConfigMap", "marcopolo")
    assert "MARCOPOLO_RECORDS" not in cm["data"] and not any("postgresql" in v for v in cm["data"].values())

    # the data on the claim, in a folder of it (initdb refuses a mount point holding lost+found)
    mounts = {m["name"]: m["mountPath"] for m in pg["volumeMounts"]}
    assert sts["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    assert pg_env["PGDATA"]["value"].startswith(mounts["data"] + "/")
    assert pg["readinessProbe"]["exec"]["command"][0] == "pg_isready"


# ---- Dockerfile --------------------------------------------------------------------------------------


def _dockerfile() -> list[Any]:
    dockerfile = pytest.importorskip("dockerfile", reason="the `dockerfile` package (dev extras) parses Dockerfiles")
    return list(dockerfile.parse_file(str(DEPLOY / "Dockerfile")))


def _stages() -> list[tuple[str, list[Any]]]:
    stages: list[tuple[str, list[Any]]] = []
    for cmd in _dockerfile():
        if cmd.cmd == "FROM":
            stages.append((cmd.value[-1] if len(cmd.value) == 3 else cmd.value[0], []))
        elif stages:
            stages[-1][1].append(cmd)
    return stages


def _dockerfile_user() -> str:
    return next(c.value[0] for c in reversed(_stages()[-1][1]) if c.cmd == "USER")


def test_the_dockerfile_builds_the_web_client_and_runs_as_a_non_root_user_with_a_health_check() -> None:
    stages = _stages()
    assert len(stages) >= 3
    names = [n for n, _ in stages]
    web = next(cmds for _n, cmds in stages if any("npm run build" in c.original for c in cmds if c.cmd == "RUN"))
    assert any("npm ci" in c.original for c in web if c.cmd == "RUN")
    final_name, final = stages[-1]
    copies_from = {f.split("=", 1)[1] for c in final if c.cmd == "COPY" for f in c.flags if f.startswith("--from=")}
    assert copies_from <= set(names) and len(copies_from) == 2, "the runtime takes the venv and the web bundle"
    user = _dockerfile_user()
    assert user.split(":")[0] not in ("0", "root") and user.split(":")[0].isdigit()
    assert not any(c.cmd == "RUN" and "npm" in c.original for c in final), "no npm in the runtime image"
    health = next(c for c in final if c.cmd == "HEALTHCHECK")
    assert "/healthz" in health.original
    entry = next(c for c in final if c.cmd == "ENTRYPOINT")
    assert entry.value == ("python", "-m", "server")
    env = dict(v for c in final if c.cmd == "ENV" for v in zip(c.value[::2], c.value[1::2], strict=True))
    settings = _settings_from_env({k: v for k, v in env.items() if k.startswith("MARCOPOLO_")})
    assert settings.host == "0.0.0.0" and settings.web_root == "/app/web"
    assert settings.store == "sqlite:////app/data/marcopolo.db"  # one node alone persists, in its volume
    assert any(c.cmd == "VOLUME" and "/app/data" in c.value for c in final)
    assert any(c.cmd == "COPY" and "/app/web" in c.value for c in final)
    assert str(settings.port) in next(c for c in final if c.cmd == "EXPOSE").value


def test_every_file_the_dockerfile_copies_is_in_the_build_context() -> None:
    ignore = [
        line.strip()
        for line in (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]

    def ignored(rel: str) -> bool:
        return any(fnmatch.fnmatch(rel, pat) or fnmatch.fnmatch(rel, pat.removeprefix("**/")) for pat in ignore)

    sources = [
        src for c in _dockerfile() if c.cmd == "COPY" and not any(f.startswith("--from=") for f in c.flags)
        for src in c.value[:-1]
    ]
    assert "pyproject.toml" in sources and "clients/web/package-lock.json" in sources
    for src in sources:
        assert (ROOT / src).exists(), src
        assert not ignored(src), f"{src} is excluded from the build context"
    for pkg in ("server", "protocol", "clients", "loadtests"):
        assert pkg in sources, f"pyproject packages {pkg}, the image must copy it"
    assert ignored("clients/web/node_modules") and ignored(".venv")


def test_the_dockerfile_installs_the_hashed_lock_before_the_project_and_nothing_beyond_it() -> None:
    build = next(cmds for _n, cmds in _stages() if any("/opt/venv" in c.original for c in cmds if c.cmd == "RUN"))
    runs = [c.original for c in build if c.cmd == "RUN"]
    lock_at = next(i for i, c in enumerate(build) if c.cmd == "COPY" and "requirements.lock" in c.value)
    source_at = next(i for i, c in enumerate(build) if c.cmd == "COPY" and "server" in c.value)
    assert lock_at < source_at, "the dependencies' layer comes before the sources (it changes only with the lock)"
    deps = next(r for r in runs if "-r requirements.lock" in r)
    assert "--require-hashes" in deps and "--no-deps" in deps
    project = next(r for r in runs if re.search(r"pip install [^&]*\s\.(\s|$)", r))
    assert "--no-deps" in project and "pip check" in project


def _lock() -> list[tuple[str, str, str, list[str]]]:
    """requirements.lock as (name, version, environment marker, hashes) per pin."""
    pins: list[tuple[str, str, str, list[str]]] = []
    for block in re.split(r"\n(?=\S)", (ROOT / "requirements.lock").read_text()):
        m = re.match(r"([A-Za-z0-9._-]+)==([^\s;\\]+)\s*(?:;\s*([^\\\n]+))?", block)
        if m:
            pins.append((m[1], m[2], (m[3] or "").strip(), re.findall(r"--hash=sha256:([0-9a-f]{64})", block)))
    return pins


def test_the_lock_pins_every_dependency_of_pyproject_in_range_with_hashes() -> None:
    """The image installs only the lock (`--no-deps`): a dependency added to pyproject.toml needs `make lock`."""
    import tomllib

    from packaging.markers import Marker
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    image = {
        "python_version": "3.11",
        "python_full_version": "3.11.9",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "sys_platform": "linux",
        "platform_system": "Linux",
    }
    pins = _lock()
    assert pins and all(hashes for *_, hashes in pins), "every pin carries its files' hashes"
    in_image: dict[str, str] = {}
    for name, version, marker, _ in pins:
        if not marker or Marker(marker).evaluate(image):
            assert canonicalize_name(name) not in in_image, f"{name} pinned twice for the image"
            in_image[canonicalize_name(name)] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for line in project["dependencies"]:
        req = Requirement(line)
        version = in_image.get(canonicalize_name(req.name))
        assert version is not None, f"{req.name} (pyproject.toml) is not in requirements.lock: run `make lock`"
        assert req.specifier.contains(version, prereleases=True), f"{req.name}=={version} is not {req.specifier}"
    assert "make lock" in (ROOT / "requirements.lock").read_text().split("\n", 3)[1]
    assert re.search(r"^lock:", (ROOT / "Makefile").read_text(), re.M), "the Makefile refreshes the lock"


# ---- systemd, Redis ----------------------------------------------------------------------------------


def test_the_systemd_unit_passes_systemd_analyze_and_its_settings_parse(tmp_path: Path) -> None:
    unit = (DEPLOY / "systemd" / "marcopolo@.service").read_text()
    exec_start = re.search(r"^ExecStart=(.*)$", unit, re.M).group(1).split()  # type: ignore[union-attr]
    assert exec_start[1:3] == ["-m", "server"]
    args = [a.replace("%i", "8765").replace("%H", "host") for a in exec_start[3:]]
    ns = build_parser().parse_args(args)
    assert ns.port == 8765 and ns.node_id == "host-8765"
    env = dict(
        line.split("=", 1)
        for line in (DEPLOY / "systemd" / "marcopolo.env").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )
    settings = _settings_from_env(env)
    assert settings.host == "0.0.0.0" and settings.store.startswith("redis://")
    # the records file is in the unit's StateDirectory: under ProtectSystem=strict nothing else is writable
    state = re.search(r"^StateDirectory=(\S+)$", unit, re.M).group(1)  # type: ignore[union-attr]
    assert settings.records is not None and settings.records.startswith(f"sqlite:////var/lib/{state}/")

    analyze = tool("systemd-analyze", "Debian package systemd")
    local = tmp_path / "marcopolo@8765.service"
    local.write_text(unit.replace(exec_start[0], sys.executable))
    out = _run([analyze, "verify", str(local)])
    assert out.returncode == 0 and out.stderr.strip() == "", out.stderr
    broken = unit.replace(exec_start[0], sys.executable).replace("Type=exec", "Typ=exec")
    (tmp_path / "broken@8765.service").write_text(broken)
    assert "Unknown key" in _run([analyze, "verify", str(tmp_path / "broken@8765.service")]).stderr


def _redis_cli(port: int, *args: str) -> str:
    cli = tool("redis-cli", "Debian package redis-tools")
    return _run([cli, "-p", str(port), *args]).stdout.strip()


def test_the_redis_and_sentinel_configs_load_and_the_sentinels_find_the_primary(
    processes: Processes, tmp_path: Path
) -> None:
    redis_server = tool("redis-server", "Debian package redis-server")
    primary = free_port()
    (tmp_path / "primary").mkdir()
    proc = processes.start(
        "primary",
        [redis_server, str(DEPLOY / "redis" / "primary.conf"), "--port", str(primary), "--bind", "127.0.0.1",
         "--dir", str(tmp_path / "primary")],
    )
    wait_port(primary, proc=proc)
    assert _redis_cli(primary, "config", "get", "appendonly").split() == ["appendonly", "yes"]
    assert _redis_cli(primary, "config", "get", "maxmemory-policy").split() == ["maxmemory-policy", "noeviction"]
    sentinel = free_port()
    conf = (DEPLOY / "redis" / "sentinel.conf").read_text()
    conf = conf.replace("port 26379", f"port {sentinel}\nbind 127.0.0.1")
    conf = conf.replace("redis-primary 6379", f"127.0.0.1 {primary}")
    (tmp_path / "sentinel.conf").write_text(conf)
    proc = processes.start("sentinel", [redis_server, str(tmp_path / "sentinel.conf"), "--sentinel"])
    wait_port(sentinel, proc=proc)
    for _ in range(50):
        addr = _redis_cli(sentinel, "sentinel", "get-master-addr-by-name", "mymaster").split()
        if addr:
            break
        time.sleep(0.1)
    assert addr == ["127.0.0.1", str(primary)]
    quorum = _redis_cli(sentinel, "sentinel", "ckquorum", "mymaster")
    assert "NOQUORUM" in quorum  # alone, this sentinel cannot authorise a failover: compose runs three


def test_the_redis_cluster_config_loads_as_a_cluster_node_that_keeps_serving_during_a_failover(
    processes: Processes, tmp_path: Path
) -> None:
    from tests.faults.cluster_procs import free_ports

    redis_server = tool("redis-server", "Debian package redis-server")
    (port,) = free_ports(1)  # its cluster bus listens on port + 10000 too
    proc = processes.start(
        "cluster-node",
        [redis_server, str(DEPLOY / "redis" / "cluster.conf"), "--port", str(port), "--bind", "127.0.0.1",
         "--dir", str(tmp_path)],
    )
    wait_port(port, proc=proc)
    assert "cluster_enabled:1" in _redis_cli(port, "info", "cluster")
    assert _redis_cli(port, "config", "get", "cluster-require-full-coverage").split()[1] == "no"
    assert _redis_cli(port, "config", "get", "maxmemory-policy").split()[1] == "noeviction"
    assert _redis_cli(port, "config", "get", "appendonly").split()[1] == "yes"
    assert (tmp_path / "nodes.conf").exists()  # the node's cluster state, in its data directory
