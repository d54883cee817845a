"""Downloads reach public addresses only (transform/public_http.py, issue 27)."""

from __future__ import annotations

import ipaddress

import pytest

from kobook.transform.public_http import Refused, display, refusal, resolve, target

REFUSED = [
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "100.64.0.1",  # carrier-grade NAT
    "169.254.169.254",  # cloud instance metadata
    "224.0.0.251",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::",  # 6to4 of 169.254.169.254
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
]
PUBLIC = ["8.8.8.8", "1.1.1.1", "151.101.1.69", "2001:4860:4860::8888", "2606:4700::1111"]


@pytest.mark.parametrize("address", REFUSED)
def test_addresses_that_are_not_public_are_refused(address: str) -> None:
    assert refusal(ipaddress.ip_address(address)) is not None


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_are_reached(address: str) -> None:
    assert refusal(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "2130706433", "0x7f.1", "127.1", "0177.0.0.1", "localhost", "0", "::1"]
)
def test_every_spelling_of_loopback_is_refused_without_a_connection(host: str) -> None:
    with pytest.raises(Refused, match=r"loopback|unspecified"):
        resolve(host, 80)


@pytest.mark.parametrize(
    "url",
    [
        "http://[::ffff:127.0.0.1]:8080/x.png",
        "http://[::1]/x.png",
        "https://user:secret@127.0.0.1/x.png",
        "http://0.0.0.0:1/x.png",
    ],
)
def test_urls_to_this_machine_are_refused(url: str) -> None:
    with pytest.raises(Refused) as info:
        target(url)
    assert "secret" not in str(info.value)


def test_other_schemes_and_hostless_urls() -> None:
    for url in ("file:///etc/passwd", "gopher://x/", "http:///x.png", "http://:80/x"):
        with pytest.raises(Refused):
            target(url)


def test_credentials_are_never_displayed() -> None:
    assert display("https://user:pa@ss@img.example/a.png?q=1") == "https://img.example/a.png?q=1"
    assert display("https://img.example/a@b.png") == "https://img.example/a@b.png"
