"""``--cluster`` on the command line: without Ray, or with a bad address, one line and no play."""

from __future__ import annotations

import sys

import pytest

from bela.cli import main
from bela.cli.options import ArenaOptions, parse
from bela.lab.runner import CLUSTER_HINT


@pytest.mark.parametrize("command", [["arena", "easy", "random"]])
def test_without_ray_the_cluster_flag_says_which_extra_to_install(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    assert main([*command, "--deals", "1", "--cluster", "local", "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and CLUSTER_HINT in captured.err


@pytest.mark.parametrize("address", ["", "   ", "a b", "x" * 400, "ray://\x1b[31mred"])
def test_a_bad_address_is_a_usage_error(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "easy", "random", "--cluster", address]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cluster address" in err and "\x1b" not in err


def test_the_address_is_passed_on_as_given() -> None:
    options = parse(["arena", "easy", "random", "--cluster", "ray://head:10001"])
    assert isinstance(options, ArenaOptions) and options.cluster == "ray://head:10001"
    local = parse(["arena", "easy", "random"])
    assert isinstance(local, ArenaOptions) and local.cluster is None
