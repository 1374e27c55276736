"""deploy/cluster.py without starting anything: its refusals, and the nginx config it writes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from deploy.cluster import Cluster, ClusterError, missing_requirements, nginx_binary, render_nginx
from tests.services import unavailable

PG = "postgresql://postgres@127.0.0.1:5432/cluster"
REDIS = "redis://127.0.0.1:6379/0"


def test_it_refuses_without_database_url_or_redis_url_in_one_line() -> None:
    for env, missing in (({}, "DATABASE_URL and REDIS_URL"), ({"DATABASE_URL": PG}, "REDIS_URL")):
        problem = missing_requirements(env)
        assert problem is not None and missing in problem and "\n" not in problem
    assert "PostgreSQL" in (missing_requirements({"DATABASE_URL": "sqlite:///x", "REDIS_URL": REDIS}) or "")
    try:
        Cluster({"REDIS_URL": REDIS})
    except ClusterError as exc:
        assert "DATABASE_URL" in str(exc)
    else:
        raise AssertionError("a cluster without DATABASE_URL was accepted")


def test_the_rendered_nginx_config_is_valid_and_lists_every_web_process(tmp_path: Path) -> None:
    nginx = nginx_binary()
    if nginx is None:
        unavailable("nginx is not installed (apt-get install -y nginx)")
    cluster = Cluster({"DATABASE_URL": PG, "REDIS_URL": REDIS}, web=3, var_dir=tmp_path, prepare=False)
    conf = cluster.write_nginx_config()
    text = conf.read_text()
    assert "{{" not in text
    for port in cluster.web_ports:
        assert f"server 127.0.0.1:{port} " in text
    assert f"listen 127.0.0.1:{cluster.port} " in text
    assert "proxy_read_timeout 3600s" in text and "$connection_upgrade" in text
    done = subprocess.run(
        [nginx, "-t", "-p", str(cluster.dir), "-c", str(conf), "-e", str(cluster.dir / "error.log")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_an_unfilled_placeholder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import deploy.cluster

    template = tmp_path / "nginx.conf"
    template.write_text("listen {{listen}};\nserver_name {{server_name}};\n")
    monkeypatch.setattr(deploy.cluster, "TEMPLATE", template)
    with pytest.raises(ClusterError, match="server_name"):
        render_nginx(prefix=tmp_path, listen="8080", upstreams=[], static_root=tmp_path, media_root=tmp_path)


def test_a_process_that_dies_on_its_own_is_reported_once(tmp_path: Path) -> None:
    import sys

    from deploy.cluster import Proc

    cluster = Cluster({"DATABASE_URL": PG, "REDIS_URL": REDIS}, var_dir=tmp_path, prepare=False)
    cluster.procs = {
        "web1": Proc(name="web1", cmd=[sys.executable, "-c", "raise SystemExit(3)"], log=tmp_path / "web1.log",
                     ready=lambda _: True),
        "beat": Proc(name="beat", cmd=[sys.executable, "-c", "import time; time.sleep(30)"],
                     log=tmp_path / "beat.log", ready=lambda _: True),
    }  # fmt: skip
    cluster.start_process("web1")
    cluster.start_process("beat")
    cluster.procs["web1"].popen.wait(10)  # type: ignore[union-attr]
    lines = cluster.deaths()
    assert len(lines) == 1 and "web1" in lines[0] and "3" in lines[0] and "\n" not in lines[0], lines
    assert cluster.deaths() == []  # said once
    cluster.kill("beat")  # asked for: not a death to report
    assert cluster.deaths() == []
