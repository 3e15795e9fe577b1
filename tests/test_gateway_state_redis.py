"""Two gateway processes on one Redis: a conversation's turn 1 goes through the first, turn 2
(``previous_response_id``) through the second; the same for a Chat client's thinking tool loop
(its reasoning state written by one process, replayed by the other). Then ``--workers 2``: one
port, two processes, one Redis. Needs Redis: skipped on a developer's machine without it, a
failure in CI (tests/redis_util.py)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tests import gateway_upstream as gu  # noqa: E402
from tests.redis_util import redis_server  # noqa: E402
from tests.state_upstream import ThinkingState, create_thinking_app  # noqa: E402
from tests.test_gateway_state import TOOLS  # noqa: E402
from tests.test_gateway_state_reasoning import tool_loop  # noqa: E402


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    yield from redis_server()


@pytest.fixture(scope="module")
def upstreams() -> Iterator[tuple[str, str, ThinkingState]]:
    chat = gu.ServerThread(gu.create_upstream_app(gu.UpstreamState(use_recorded=False)))
    st = ThinkingState()
    thinking = gu.ServerThread(create_thinking_app(st))
    chat.start()
    thinking.start()
    try:
        yield chat.url, thinking.url, st
    finally:
        chat.stop()
        thinking.stop()


def write_config(path: Path, chat: str, thinking: str) -> Path:
    path.write_text(
        f"""
[[upstreams]]
protocol = "anthropic_messages"
base_url = "{thinking}/v1"
models = ["claude-*"]

[[upstreams]]
protocol = "openai_chat"
base_url = "{chat}/v1"
models = ["*"]
"""
    )
    return path


class Gateway:
    """``interlingua serve`` in its own process, on a free port of 127.0.0.1."""

    def __init__(self, config: Path, state: str, *extra: str) -> None:
        self.port = gu.free_closed_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-m", "interlingua", "serve", "--config", str(config)]
        cmd += ["--port", str(self.port), "--state", state, "--log-level", "warning", *extra]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"gateway did not start: {self.stderr()}")
            time.sleep(0.1)

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return ""
        return (self.proc.stderr.read() if self.proc.stderr else b"").decode(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc.stderr:
            self.proc.stderr.close()


@pytest.fixture(scope="module")
def two_gateways(
    tmp_path_factory: pytest.TempPathFactory, redis_url: str, upstreams: tuple[str, str, Any]
) -> Iterator[tuple[Gateway, Gateway]]:
    config = write_config(tmp_path_factory.mktemp("gw") / "gateway.toml", *upstreams[:2])
    a = Gateway(config, redis_url)
    try:
        b = Gateway(config, redis_url)
    except BaseException:
        a.stop()
        raise
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def responses(url: str) -> Any:
    return gu.openai_client(url, "any").responses


@pytest.mark.parametrize("stream", [False, True], ids=["body", "stream"])
def test_turn_two_through_another_process(
    two_gateways: tuple[Gateway, Gateway], stream: bool
) -> None:
    import openai

    a, b = two_gateways
    kw: dict[str, Any] = {"model": "chat-model", "tools": TOOLS}
    if stream:
        with responses(a.url).stream(input="What is the weather in Paris?", **kw) as s:
            r1 = s.get_final_response()
    else:
        r1 = responses(a.url).create(input="What is the weather in Paris?", **kw)
    fc = next(o for o in r1.output if o.type == "function_call")
    out = [{"type": "function_call_output", "call_id": fc.call_id, "output": "17 C"}]
    r2 = responses(b.url).create(previous_response_id=r1.id, input=out, **kw)
    assert r2.output_text == gu.answer_text("17 C")
    assert responses(a.url).retrieve(r2.id).previous_response_id == r1.id
    items = responses(b.url).input_items.list(r2.id)
    assert [i.type for i in items.data] == ["function_call_output"]
    # an item of turn 1 referenced through the other process
    r3 = responses(a.url).create(
        input=[
            {"role": "user", "content": "What is the weather in Paris?"},
            {"type": "item_reference", "id": fc.id},
            {"type": "function_call_output", "call_id": fc.call_id, "output": "18 C"},
        ],
        **kw,
    )
    assert r3.output_text == gu.answer_text("18 C")
    responses(b.url).delete(r1.id)
    with pytest.raises(openai.NotFoundError):
        responses(a.url).retrieve(r1.id)


def test_reasoning_state_across_processes(
    two_gateways: tuple[Gateway, Gateway], upstreams: tuple[str, str, ThinkingState]
) -> None:
    """A Chat client's thinking loop whose every turn goes to the other process."""
    a, b = two_gateways
    st = upstreams[2]
    before = len(st.thinking)
    urls = iter([a.url, b.url, a.url])
    answer, headers = tool_loop(lambda: next(urls), "claude-thinker", False)
    assert answer == "Done: value 0; value 1"
    assert st.thinking[before:] == [True, True, True] and not st.refused
    assert headers == ["", "", ""]


def test_workers_share_one_redis(
    tmp_path: Path, redis_url: str, upstreams: tuple[str, str, Any]
) -> None:
    config = write_config(tmp_path / "gateway.toml", *upstreams[:2])
    gw = Gateway(config, redis_url, "--workers", "2")
    try:
        for _ in range(4):  # new connections: the turns land on either process
            c = gu.openai_client.__wrapped__(gw.url, "any").responses  # type: ignore[attr-defined]
            r1 = c.create(model="chat-model", tools=TOOLS, input="What is the weather in Paris?")
            fc = next(o for o in r1.output if o.type == "function_call")
            out = [{"type": "function_call_output", "call_id": fc.call_id, "output": "9 C"}]
            c2 = gu.openai_client.__wrapped__(gw.url, "any").responses  # type: ignore[attr-defined]
            r2 = c2.create(model="chat-model", tools=TOOLS, previous_response_id=r1.id, input=out)
            assert r2.output_text == gu.answer_text("9 C")
    finally:
        gw.stop()


def test_workers_refuse_a_per_process_store(tmp_path: Path) -> None:
    config = write_config(tmp_path / "gateway.toml", "http://127.0.0.1:9", "http://127.0.0.1:9")
    cmd = [sys.executable, "-m", "interlingua", "serve", "--config", str(config)]
    done = subprocess.run(
        [*cmd, "--workers", "2", "--state", "memory"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "state = memory" in done.stderr
